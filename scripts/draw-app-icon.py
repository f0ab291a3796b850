#!/usr/bin/python3
"""Draws tooltip-demo's application icon into assets/: a tooltip pointing at a button.

Run with Debian's python3 and python3-cairo:  /usr/bin/python3 scripts/draw-app-icon.py
Writes assets/tooltip-demo.svg (the scalable icon) and assets/tooltip-demo-<N>.png for the
sizes of the hicolor icon theme. The art is drawn on a 256-unit grid; sizes of 24 pixels and
less use thicker shapes and leave out the text lines, 32 pixels and less the pointer, which
would be smudges at those sizes.
"""
import math
import os

import cairo

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets")
NAME = "tooltip-demo"
SIZES = [16, 22, 24, 32, 48, 64, 128, 256]

BLUE_TOP = (0.35, 0.60, 1.00)
BLUE_BOTTOM = (0.16, 0.36, 0.85)
BUBBLE = (0.15, 0.15, 0.18)
TEXT = (0.93, 0.93, 0.96)
BUTTON = (1.00, 1.00, 1.00)


def rounded_rect(cr, x, y, w, h, r):
    cr.new_sub_path()
    cr.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    cr.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    cr.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    cr.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    cr.close_path()


def bubble(cr, x, y, w, h, r, arrow_x, arrow_w, arrow_h):
    """A rounded body with an arrow on its bottom edge, as one outline (like X11UI's tooltips)."""
    cr.new_sub_path()
    cr.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    cr.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    cr.line_to(arrow_x + arrow_w / 2, y + h)
    cr.line_to(arrow_x, y + h + arrow_h)
    cr.line_to(arrow_x - arrow_w / 2, y + h)
    cr.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    cr.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    cr.close_path()


def draw(cr, pixels):
    """Draws the icon on a 256-unit grid; `pixels` is the output size (None: scalable)."""
    small = pixels is not None and pixels <= 24
    # The tile: a rounded square with a vertical gradient and a hairline darker edge.
    gradient = cairo.LinearGradient(0, 16, 0, 240)
    gradient.add_color_stop_rgb(0, *BLUE_TOP)
    gradient.add_color_stop_rgb(1, *BLUE_BOTTOM)
    if small:
        rounded_rect(cr, 0, 0, 256, 256, 40)
    else:
        rounded_rect(cr, 16, 16, 224, 224, 44)
    cr.set_source(gradient)
    cr.fill_preserve()
    cr.set_source_rgba(0.05, 0.15, 0.45, 0.35)
    cr.set_line_width(4 if not small else 0.01)
    cr.stroke()

    if small:
        # Only the bubble and the button it points at, thick enough to survive 16 pixels.
        bubble(cr, 32, 40, 192, 112, 28, 128, 64, 40)
        cr.set_source_rgb(*BUBBLE)
        cr.fill()
        rounded_rect(cr, 64, 80, 128, 32, 16)
        cr.set_source_rgb(*TEXT)
        cr.fill()
        rounded_rect(cr, 64, 200, 128, 36, 12)
        cr.set_source_rgb(*BUTTON)
        cr.fill()
        return

    # The tooltip: a dark bubble with two lines of text and an arrow down to the button.
    cr.save()
    cr.translate(0, 5)
    bubble(cr, 44, 48, 168, 92, 18, 128, 44, 26)
    cr.set_source_rgba(0, 0, 0.2, 0.25)  # its soft shadow
    cr.fill()
    cr.restore()
    bubble(cr, 44, 48, 168, 92, 18, 128, 44, 26)
    cr.set_source_rgb(*BUBBLE)
    cr.fill()
    rounded_rect(cr, 68, 72, 120, 16, 8)
    cr.set_source_rgb(*TEXT)
    cr.fill()
    rounded_rect(cr, 68, 100, 80, 16, 8)
    cr.set_source_rgba(*TEXT, 0.7)
    cr.fill()

    # The button the tooltip explains.
    rounded_rect(cr, 64, 176, 128, 40, 12)
    cr.set_source_rgb(*BUTTON)
    cr.fill()
    rounded_rect(cr, 88, 191, 80, 10, 5)
    cr.set_source_rgb(*BLUE_BOTTOM)
    cr.fill()

    if pixels is not None and pixels <= 32:
        return  # the pointer is a smudge at 32 pixels
    # The pointer resting on it.
    cr.save()
    cr.translate(150, 190)
    cr.scale(1.1, 1.1)
    cr.move_to(0, 0)
    cr.line_to(0, 44)
    cr.line_to(10, 34)
    cr.line_to(18, 51)
    cr.line_to(25, 48)
    cr.line_to(17, 31)
    cr.line_to(31, 31)
    cr.close_path()
    cr.restore()
    cr.set_source_rgb(*BUBBLE)
    cr.set_line_width(5)
    cr.set_line_join(cairo.LINE_JOIN_ROUND)
    cr.stroke_preserve()
    cr.set_source_rgb(1, 1, 1)
    cr.fill()


def main():
    for size in SIZES:
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
        cr = cairo.Context(surface)
        cr.scale(size / 256, size / 256)
        draw(cr, size)
        surface.write_to_png(os.path.join(OUT, "%s-%d.png" % (NAME, size)))
    svg = cairo.SVGSurface(os.path.join(OUT, NAME + ".svg"), 256, 256)
    svg.set_document_unit(cairo.SVGUnit.PX)
    draw(cairo.Context(svg), None)
    svg.finish()


if __name__ == "__main__":
    main()
