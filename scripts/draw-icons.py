#!/usr/bin/python3
"""Draws X11UI's monochrome icons (black on transparent, so views can tint them) into assets/.

Run with Debian's python3 and python3-cairo:  /usr/bin/python3 scripts/draw-icons.py
Each icon is drawn on a 24-unit grid and rendered at 64x64 pixels.
"""
import math
import os

import cairo

SIZE = 64
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets")


def icon(name):
    def register(draw):
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, SIZE, SIZE)
        cr = cairo.Context(surface)
        cr.scale(SIZE / 24, SIZE / 24)
        cr.set_source_rgba(0, 0, 0, 1)
        cr.set_line_width(2)
        cr.set_line_cap(cairo.LINE_CAP_ROUND)
        cr.set_line_join(cairo.LINE_JOIN_ROUND)
        draw(cr)
        surface.write_to_png(os.path.join(OUT, name + ".png"))
        return draw
    return register


def rounded_rect(cr, x, y, w, h, r):
    cr.new_sub_path()
    cr.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    cr.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    cr.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    cr.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    cr.close_path()


@icon("house")
def house(cr):
    cr.move_to(3, 11)
    cr.line_to(12, 3.5)
    cr.line_to(21, 11)
    cr.stroke()
    cr.move_to(5.5, 9.5)
    cr.line_to(5.5, 20.5)
    cr.line_to(18.5, 20.5)
    cr.line_to(18.5, 9.5)
    cr.stroke()
    rounded_rect(cr, 10, 14, 4, 6.5, 0.8)
    cr.fill()


@icon("video")
def video(cr):
    rounded_rect(cr, 2.5, 6.5, 13, 11, 2.5)
    cr.fill()
    cr.move_to(16.5, 10.5)
    cr.line_to(21.5, 7.5)
    cr.line_to(21.5, 16.5)
    cr.line_to(16.5, 13.5)
    cr.close_path()
    cr.fill()


@icon("mic")
def mic(cr):
    rounded_rect(cr, 8.5, 2.5, 7, 12, 3.5)
    cr.fill()
    cr.arc_negative(12, 11, 6.5, math.pi, 0)
    cr.stroke()
    cr.move_to(12, 17.5)
    cr.line_to(12, 21)
    cr.move_to(8.5, 21)
    cr.line_to(15.5, 21)
    cr.stroke()


@icon("cart")
def cart(cr):
    cr.move_to(2, 3.5)
    cr.line_to(5, 3.5)
    cr.line_to(7.5, 15)
    cr.line_to(18.5, 15)
    cr.line_to(21, 7)
    cr.line_to(6, 7)
    cr.stroke()
    cr.arc(9, 19, 1.8, 0, 2 * math.pi)
    cr.fill()
    cr.arc(17, 19, 1.8, 0, 2 * math.pi)
    cr.fill()


@icon("heart")
def heart(cr):
    cr.move_to(12, 21)
    cr.curve_to(4, 15, 1.5, 11, 2.5, 7.5)
    cr.curve_to(3.5, 3.5, 9, 2.5, 12, 6.5)
    cr.curve_to(15, 2.5, 20.5, 3.5, 21.5, 7.5)
    cr.curve_to(22.5, 11, 20, 15, 12, 21)
    cr.close_path()
    cr.fill()


@icon("chat")
def chat(cr):
    rounded_rect(cr, 2.5, 3.5, 19, 13, 4)
    cr.fill()
    cr.move_to(6, 15)
    cr.line_to(5, 21)
    cr.line_to(11.5, 15.5)
    cr.close_path()
    cr.fill()
