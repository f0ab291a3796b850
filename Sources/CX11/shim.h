#ifndef CX11_SHIM_H
#define CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/Xresource.h>
#include <X11/keysym.h>
#include <X11/cursorfont.h>
#include <X11/extensions/shape.h>
#include <X11/extensions/Xrender.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/XI2.h>
#include <X11/Xft/Xft.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SIZES_H
#include <fontconfig/fcfreetype.h>
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>
#include <poll.h>
#include <fribidi/fribidi.h>
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ft.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/epoll.h>
#include <stddef.h>

/* Only what Swift cannot import as it is. Function-like macros (DefaultScreen, RootWindow,
   ConnectionNumber) have X-prefixed function twins, and fontconfig's FC_* property names are
   plain strings ("family", "charset"), so neither needs a shim. */

/* ppoll (nanosecond timeouts for the run loop) is a GNU extension that Swift's Glibc module,
   built without _GNU_SOURCE, does not declare. */
struct timespec;
extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const __sigset_t *sigmask);

/* Opens `soname` (RTLD_NOW | RTLD_LOCAL) and looks up `count` functions by `names` into
   `functions`; returns the library, or NULL, with the functions cleared and nothing left open,
   when it or one of its functions is missing. */
static inline void *cx11_library_open(const char *soname, void **functions[], const char *const names[],
                                      unsigned count) {
    for (unsigned i = 0; i < count; i++) *functions[i] = NULL;
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) return NULL;
    for (unsigned i = 0; i < count; i++) {
        *functions[i] = dlsym(library, names[i]);
        if (!*functions[i]) {
            for (unsigned j = 0; j < count; j++) *functions[j] = NULL;
            dlclose(library);
            return NULL;
        }
    }
    return library;
}

#define CX11_COUNT(array) ((unsigned)(sizeof(array) / sizeof((array)[0])))

/* libXrandr, loaded when the extensions are first asked for (after the first window shows),
   never linked: the dynamic loader maps and relocates it at every start otherwise. The
   functions have the prototypes of <X11/extensions/Xrandr.h>, whose types stay in use. */
struct cx11_randr {
    void *library;
    Bool (*query_extension)(Display *, int *, int *);
    Status (*query_version)(Display *, int *, int *);
    void (*select_input)(Display *, Window, int);
    XRRMonitorInfo *(*get_monitors)(Display *, Window, Bool, int *);
    void (*free_monitors)(XRRMonitorInfo *);
    int (*update_configuration)(XEvent *);
};

/* Opens libXrandr (`soname`: libXrandr.so.2) and finds its functions; returns 0 (and leaves
   nothing open) when the library or one of them is missing. */
static inline int cx11_randr_load(struct cx11_randr *randr, const char *soname) {
    void **functions[] = {
        (void **)&randr->query_extension, (void **)&randr->query_version, (void **)&randr->select_input,
        (void **)&randr->get_monitors, (void **)&randr->free_monitors, (void **)&randr->update_configuration,
    };
    const char *const names[] = {
        "XRRQueryExtension", "XRRQueryVersion", "XRRSelectInput", "XRRGetMonitors", "XRRFreeMonitors",
        "XRRUpdateConfiguration",
    };
    randr->library = cx11_library_open(soname, functions, names, CX11_COUNT(names));
    return randr->library != NULL;
}

/* libXfixes, loaded with libXrandr (for the compositor's selection-owner events and the image
   of the cursor shown), never linked;
   prototypes of <X11/extensions/Xfixes.h>. */
struct cx11_xfixes {
    void *library;
    Bool (*query_extension)(Display *, int *, int *);
    Status (*query_version)(Display *, int *, int *);
    void (*select_selection_input)(Display *, Window, Atom, unsigned long);
    XFixesCursorImage *(*get_cursor_image)(Display *);
    void (*select_cursor_input)(Display *, Window, unsigned long);
};

/* Opens libXfixes (`soname`: libXfixes.so.3); returns 0 (and leaves nothing open) when the
   library or one of its functions is missing. */
static inline int cx11_xfixes_load(struct cx11_xfixes *xfixes, const char *soname) {
    void **functions[] = {
        (void **)&xfixes->query_extension, (void **)&xfixes->query_version, (void **)&xfixes->select_selection_input,
        (void **)&xfixes->get_cursor_image, (void **)&xfixes->select_cursor_input,
    };
    const char *const names[] = {
        "XFixesQueryExtension", "XFixesQueryVersion", "XFixesSelectSelectionInput", "XFixesGetCursorImage",
        "XFixesSelectCursorInput",
    };
    xfixes->library = cx11_library_open(soname, functions, names, CX11_COUNT(names));
    return xfixes->library != NULL;
}

/* XInput 2.2 touch events, through libXi (loaded with the other extensions, never linked).
   XI2.h (x11proto-dev, which libX11's headers need anyway) gives the constants; the structs
   and prototypes of <X11/extensions/XInput2.h> (libxi-dev, not otherwise needed) are declared
   here as libXi 1.x defines them, an ABI unchanged since XI 2.0. */
typedef struct {
    int mask_len;
    unsigned char *mask;
} cx11_XIButtonState;
typedef struct {
    int mask_len;
    unsigned char *mask;
    double *values;
} cx11_XIValuatorState;
typedef struct {
    int base, latched, locked, effective;
} cx11_XIModifierState;
typedef struct {
    int type; /* GenericEvent */
    unsigned long serial;
    Bool send_event;
    Display *display;
    int extension; /* the XInputExtension's major opcode */
    int evtype;    /* XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd, ... */
    Time time;
    int deviceid;
    int sourceid;
    int detail; /* for touch events: the touch's id */
    Window root;
    Window event;
    Window child;
    double root_x, root_y;
    double event_x, event_y;
    int flags; /* XITouchEmulatingPointer, XIPointerEmulated */
    cx11_XIButtonState buttons;
    cx11_XIValuatorState valuators;
    cx11_XIModifierState mods;
    cx11_XIModifierState group;
} cx11_XIDeviceEvent;
typedef struct {
    int deviceid;
    int mask_len;
    unsigned char *mask;
} cx11_XIEventMask;

struct cx11_xi {
    void *library;
    Status (*query_version)(Display *, int *, int *);
    Status (*select_events)(Display *, Window, cx11_XIEventMask *, int);
};

/* Opens libXi (`soname`: libXi.so.6); returns 0 (and leaves nothing open) when the library or
   one of its functions is missing. */
static inline int cx11_xi_load(struct cx11_xi *xi, const char *soname) {
    void **functions[] = {(void **)&xi->query_version, (void **)&xi->select_events};
    const char *const names[] = {"XIQueryVersion", "XISelectEvents"};
    xi->library = cx11_library_open(soname, functions, names, CX11_COUNT(names));
    return xi->library != NULL;
}

/* Asks for XI 2.2 on `display`: returns 1 when the server has it (touch events can be
   selected), 0 otherwise. The XInputExtension is looked for first with XQueryExtension, its
   major opcode stored in *opcode; libXi then asks for its version (XIQueryVersion), which also
   lets Xlib hand XI2 events out as cookies (XGetEventData). */
static inline int cx11_xi_query(const struct cx11_xi *xi, Display *display, int *opcode) {
    int event = 0, error = 0;
    *opcode = 0;
    if (!xi->library || !XQueryExtension(display, "XInputExtension", opcode, &event, &error)) return 0;
    int major = 2, minor = 2;
    if (xi->query_version(display, &major, &minor) != Success) return 0;
    return major > 2 || (major == 2 && minor >= 2);
}

/* Selects XI 2.2 touch events (begin, update and end: the server takes all three or none)
   from every master device on `window`. */
static inline void cx11_xi_select_touch(const struct cx11_xi *xi, Display *display, Window window) {
    unsigned char bits[XIMaskLen(XI_TouchEnd)];
    memset(bits, 0, sizeof bits);
    XISetMask(bits, XI_TouchBegin);
    XISetMask(bits, XI_TouchUpdate);
    XISetMask(bits, XI_TouchEnd);
    cx11_XIEventMask mask = {XIAllMasterDevices, (int)sizeof bits, bits};
    xi->select_events(display, window, &mask, 1);
}

/* The fields of an XI2 touch event tooltips need. */
struct cx11_touch_fields {
    int evtype;
    int detail;
    int flags;
    Window event;
    double event_x, event_y, root_x, root_y;
    Time time;
};

/* Copies the fields of an XI2 device event (the data of a cookie XGetEventData filled). */
static inline void cx11_touch_fields_copy(const cx11_XIDeviceEvent *e, struct cx11_touch_fields *out) {
    out->evtype = e->evtype;
    out->detail = e->detail;
    out->flags = e->flags;
    out->event = e->event;
    out->event_x = e->event_x;
    out->event_y = e->event_y;
    out->root_x = e->root_x;
    out->root_y = e->root_y;
    out->time = e->time;
}

/* For a GenericEvent of the extension `opcode`: reads its data (XGetEventData), copies a touch
   event's fields into *out and frees the data (XFreeEventData) whatever it held. Returns 1 for
   a touch event, 0 for anything else (another extension's, another XI2 event, data already
   read or not there). */
static inline int cx11_xi_read_touch(Display *display, XEvent *event, int opcode, struct cx11_touch_fields *out) {
    XGenericEventCookie *cookie = &event->xcookie;
    if (opcode == 0 || cookie->type != GenericEvent || cookie->extension != opcode) return 0;
    if (!XGetEventData(display, cookie)) return 0;
    int touch = 0;
    if (cookie->data && (cookie->evtype == XI_TouchBegin || cookie->evtype == XI_TouchUpdate ||
                         cookie->evtype == XI_TouchEnd)) {
        cx11_touch_fields_copy((const cx11_XIDeviceEvent *)cookie->data, out);
        touch = 1;
    }
    XFreeEventData(display, cookie);
    return touch;
}

/* libXcursor, loaded the first time a view asks for a cursor other than its window's default,
   never linked. Declared here (no header needed): an XcursorImages is only passed from the
   loader to the cursor maker and freed, never read. */
struct cx11_xcursor {
    void *library;
    /* XcursorFileLoadImages: the images of the size nearest `size` from an open Xcursor file
       (a FILE *, which X11UI opens and checks itself: see CursorFile.swift). */
    void *(*file_load_images)(void *file, int size);
    /* XcursorLibraryPath: the folders themes are looked for in (XCURSOR_PATH, else the
       library's own list). */
    const char *(*library_path)(void);
    /* XcursorImagesSetName: the name the cursor is made with (XFixes reports it). */
    void (*images_set_name)(void *images, const char *name);
    Cursor (*images_load_cursor)(Display *, const void *images);
    void (*images_destroy)(void *images);
    char *(*get_theme)(Display *);
    int (*get_default_size)(Display *);
};

/* Opens libXcursor (`soname`: libXcursor.so.1); returns 0 (and leaves nothing open) when the
   library or one of its functions is missing. */
static inline int cx11_xcursor_load(struct cx11_xcursor *xcursor, const char *soname) {
    void **functions[] = {
        (void **)&xcursor->file_load_images, (void **)&xcursor->library_path,
        (void **)&xcursor->images_set_name, (void **)&xcursor->images_load_cursor,
        (void **)&xcursor->images_destroy, (void **)&xcursor->get_theme, (void **)&xcursor->get_default_size,
    };
    const char *const names[] = {
        "XcursorFileLoadImages", "XcursorLibraryPath", "XcursorImagesSetName", "XcursorImagesLoadCursor",
        "XcursorImagesDestroy", "XcursorGetTheme", "XcursorGetDefaultSize",
    };
    xcursor->library = cx11_library_open(soname, functions, names, CX11_COUNT(names));
    return xcursor->library != NULL;
}

/* FriBidi, loaded the first time a text holds a right-to-left character, never linked (text
   without one never needs it); prototypes of <fribidi/fribidi.h>, whose types and macros stay
   in use. */
struct cx11_fribidi {
    void *library;
    FriBidiLevel (*log2vis)(const FriBidiChar *, const FriBidiStrIndex, FriBidiParType *, FriBidiChar *,
                            FriBidiStrIndex *, FriBidiStrIndex *, FriBidiLevel *);
    void (*get_bidi_types)(const FriBidiChar *, const FriBidiStrIndex, FriBidiCharType *);
    void (*get_bracket_types)(const FriBidiChar *, const FriBidiStrIndex, const FriBidiCharType *,
                              FriBidiBracketType *);
    FriBidiLevel (*get_par_embedding_levels_ex)(const FriBidiCharType *, const FriBidiBracketType *,
                                                const FriBidiStrIndex, FriBidiParType *, FriBidiLevel *);
    void (*shape)(FriBidiFlags, const FriBidiLevel *, const FriBidiStrIndex, FriBidiArabicProp *, FriBidiChar *);
    FriBidiLevel (*reorder_line)(FriBidiFlags, const FriBidiCharType *, const FriBidiStrIndex, const FriBidiStrIndex,
                                 const FriBidiParType, FriBidiLevel *, FriBidiChar *, FriBidiStrIndex *);
    FriBidiCharType (*get_bidi_type)(FriBidiChar);
};

/* Opens libfribidi (`soname`: libfribidi.so.0); returns 0 (and leaves nothing open) when the
   library or one of its functions is missing. */
static inline int cx11_fribidi_load(struct cx11_fribidi *fribidi, const char *soname) {
    void **functions[] = {
        (void **)&fribidi->log2vis, (void **)&fribidi->get_bidi_types, (void **)&fribidi->get_bracket_types,
        (void **)&fribidi->get_par_embedding_levels_ex, (void **)&fribidi->shape, (void **)&fribidi->reorder_line,
        (void **)&fribidi->get_bidi_type,
    };
    const char *const names[] = {
        "fribidi_log2vis", "fribidi_get_bidi_types", "fribidi_get_bracket_types",
        "fribidi_get_par_embedding_levels_ex", "fribidi_shape", "fribidi_reorder_line", "fribidi_get_bidi_type",
    };
    fribidi->library = cx11_library_open(soname, functions, names, CX11_COUNT(names));
    return fribidi->library != NULL;
}

/* The Unicode bidirectional algorithm over one line of text (FriBidi, loaded): `visual` receives
   the line in display order, brackets mirrored and, when `join_arabic` is set, Arabic joined into
   presentation forms (one for one, so positions still correspond; for text that HarfBuzz does
   not shape); `visual_to_logical` the logical position of each display position, and `levels`
   each logical position's embedding level (odd: right-to-left). Combining marks follow their
   base in `visual` (rule L3). `base` is the paragraph's direction: 1 right-to-left, 0
   left-to-right, -1 from the line's first strong character (FRIBIDI_PAR_ON, which Swift cannot
   import). *rtl is set to 1 when the direction used is right-to-left. Returns 0 when FriBidi
   fails or is not loaded. */
static inline int cx11_bidi_line(const struct cx11_fribidi *fribidi, const uint32_t *logical, int length, int base,
                                 int join_arabic, uint32_t *visual, int *visual_to_logical, signed char *levels,
                                 int *rtl) {
    *rtl = 0;
    if (!fribidi->library) return 0;
    FriBidiParType direction = base > 0 ? FRIBIDI_PAR_RTL : base == 0 ? FRIBIDI_PAR_LTR : FRIBIDI_PAR_ON;
    FriBidiLevel max_level = 0;
    if (join_arabic) {
        max_level = fribidi->log2vis(logical, length, &direction, visual, NULL, visual_to_logical, levels);
    } else if (length > 0) {
        /* fribidi_log2vis without its Arabic joining and shaping. */
        FriBidiCharType *types = malloc((size_t)length * sizeof *types);
        FriBidiBracketType *brackets = malloc((size_t)length * sizeof *brackets);
        if (types && brackets) {
            fribidi->get_bidi_types(logical, length, types);
            fribidi->get_bracket_types(logical, length, types, brackets);
            max_level = fribidi->get_par_embedding_levels_ex(types, brackets, length, &direction, levels);
            if (max_level) {
                memcpy(visual, logical, (size_t)length * sizeof *visual);
                for (int i = 0; i < length; i++) visual_to_logical[i] = i;
                fribidi->shape(FRIBIDI_FLAGS_DEFAULT, levels, length, NULL, visual);
                if (!fribidi->reorder_line(FRIBIDI_FLAGS_DEFAULT, types, length, 0, direction, levels, visual,
                                           visual_to_logical))
                    max_level = 0;
            }
        }
        free(types);
        free(brackets);
    }
    *rtl = FRIBIDI_IS_RTL(direction) ? 1 : 0;
    return max_level != 0;
}

/* A scalar's strong direction (UAX #9 types L, R and AL): 1 right-to-left, 0 left-to-right,
   -1 neither (numbers, punctuation, spaces, marks, explicit formatting characters), or when
   FriBidi is not loaded. */
static inline int cx11_bidi_strong_direction(const struct cx11_fribidi *fribidi, uint32_t scalar) {
    if (!fribidi->library) return -1;
    FriBidiCharType type = fribidi->get_bidi_type(scalar);
    if (!FRIBIDI_IS_LETTER(type)) return -1;
    return FRIBIDI_IS_RTL(type) ? 1 : 0;
}

/* HarfBuzz, loaded when the first text that needs shaping is drawn: linking it would load it
   and GLib with it (about 1 MB resident) into every program, most of which never shape. */
struct cx11_harfbuzz {
    void *library;
    /* One buffer for every run shaped (one thread). */
    hb_buffer_t *buffer;
    hb_font_t *(*ft_font_create_referenced)(FT_Face);
    void (*ft_font_changed)(hb_font_t *);
    void (*buffer_reset)(hb_buffer_t *);
    void (*font_destroy)(hb_font_t *);
    hb_buffer_t *(*buffer_create)(void);
    void (*buffer_destroy)(hb_buffer_t *);
    void (*buffer_add_utf8)(hb_buffer_t *, const char *, int, unsigned int, int);
    void (*buffer_guess_segment_properties)(hb_buffer_t *);
    void (*buffer_set_direction)(hb_buffer_t *, hb_direction_t);
    hb_bool_t (*buffer_allocation_successful)(hb_buffer_t *);
    void (*shape)(hb_font_t *, hb_buffer_t *, const hb_feature_t *, unsigned int);
    hb_glyph_info_t *(*buffer_get_glyph_infos)(hb_buffer_t *, unsigned int *);
    hb_glyph_position_t *(*buffer_get_glyph_positions)(hb_buffer_t *, unsigned int *);
};

/* Opens libharfbuzz and finds its functions; returns 0 (and leaves nothing open) when the
   library or one of them is missing. */
static inline int cx11_harfbuzz_load(struct cx11_harfbuzz *hb) {
    memset(hb, 0, sizeof *hb);
    void *library = dlopen("libharfbuzz.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    void **fields[] = {
        (void **)&hb->ft_font_create_referenced, (void **)&hb->ft_font_changed, (void **)&hb->buffer_reset,
        (void **)&hb->font_destroy, (void **)&hb->buffer_create,
        (void **)&hb->buffer_destroy, (void **)&hb->buffer_add_utf8, (void **)&hb->buffer_guess_segment_properties,
        (void **)&hb->buffer_set_direction, (void **)&hb->buffer_allocation_successful, (void **)&hb->shape,
        (void **)&hb->buffer_get_glyph_infos, (void **)&hb->buffer_get_glyph_positions,
    };
    const char *names[] = {
        "hb_ft_font_create_referenced", "hb_ft_font_changed", "hb_buffer_reset", "hb_font_destroy",
        "hb_buffer_create", "hb_buffer_destroy",
        "hb_buffer_add_utf8", "hb_buffer_guess_segment_properties", "hb_buffer_set_direction",
        "hb_buffer_allocation_successful", "hb_shape", "hb_buffer_get_glyph_infos",
        "hb_buffer_get_glyph_positions",
    };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        *fields[i] = dlsym(library, names[i]);
        if (!*fields[i]) {
            dlclose(library);
            memset(hb, 0, sizeof *hb);
            return 0;
        }
    }
    hb->buffer = hb->buffer_create();
    if (!hb->buffer_allocation_successful(hb->buffer)) {
        hb->buffer_destroy(hb->buffer);
        dlclose(library);
        memset(hb, 0, sizeof *hb);
        return 0;
    }
    hb->library = library;
    return 1;
}

/* A HarfBuzz font for a FreeType face, kept and reused for every run the face shapes (a new
   one would load the face's shaping tables again); NULL on failure. */
static inline hb_font_t *cx11_shaping_font(const struct cx11_harfbuzz *hb, FT_Face face) {
    return hb->library ? hb->ft_font_create_referenced(face) : NULL;
}

static inline void cx11_shaping_font_destroy(const struct cx11_harfbuzz *hb, hb_font_t *font) {
    if (hb->library && font) hb->font_destroy(font);
}

/* Shapes a run of UTF-8 text with a shaping font made for `face` (HarfBuzz), at the face's
   current size: ligatures, conjuncts and reordered vowel signs of Indic scripts, emoji
   sequences joined with ZWJ, flags, Arabic joining, ligatures and marks. `*x_scale` remembers
   the size the font was last synced to (Xft sets a face's size when it locks it, and shares a
   face among the sizes of one file). A left-to-right run is already in display order (the
   bidirectional algorithm ran first); a right-to-left one (`right_to_left`: Arabic, Syriac,
   N'Ko) is given in reading order, and its glyphs come out in display order, from the left.
   The script is the one HarfBuzz guesses. Writes at most `capacity` glyphs: their ids, their
   clusters (the byte offset in `utf8` of the text each glyph shows; `clusters` may be NULL),
   and their advances and offsets in 1/64 pixel; returns how many glyphs there are (more than
   `capacity` means: call again with room), or -1 on failure. *scalable is set to 0 for a
   bitmap face (colour emoji), whose advances are those of its fixed strike and must be taken
   from the scaled font instead. */
static inline int cx11_shape(const struct cx11_harfbuzz *hb, hb_font_t *font, FT_Face face, long *x_scale,
                             const char *utf8, int length, int right_to_left, unsigned *glyphs, unsigned *clusters,
                             int *x_advances, int *x_offsets, int *y_offsets, int capacity, int *scalable) {
    *scalable = FT_IS_SCALABLE(face) ? 1 : 0;
    if (!hb->library || !font) return -1;
    if (face->size && face->size->metrics.x_scale != *x_scale) {
        hb->ft_font_changed(font);
        *x_scale = face->size->metrics.x_scale;
    }
    hb_buffer_t *buffer = hb->buffer;
    hb->buffer_reset(buffer);
    hb->buffer_add_utf8(buffer, utf8, length, 0, length);
    hb->buffer_guess_segment_properties(buffer);
    hb->buffer_set_direction(buffer, right_to_left ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    hb->shape(font, buffer, NULL, 0);
    if (!hb->buffer_allocation_successful(buffer)) return -1;
    unsigned count = 0;
    hb_glyph_info_t *info = hb->buffer_get_glyph_infos(buffer, &count);
    hb_glyph_position_t *position = hb->buffer_get_glyph_positions(buffer, &count);
    for (unsigned i = 0; i < count && i < (unsigned)capacity; i++) {
        glyphs[i] = info[i].codepoint;
        if (clusters) clusters[i] = info[i].cluster;
        x_advances[i] = position[i].x_advance;
        x_offsets[i] = position[i].x_offset;
        y_offsets[i] = position[i].y_offset;
    }
    return (int)count;
}

/* Xft's record of a font opened on a FreeType face X11UI owns (fontconfig's `ftface`), to let
   that face go while the font keeps the glyphs it rendered, and to hand the font the face
   opened again. The layout is that of Xft 2.3.5 and later (its private xftint.h: XftFontInt
   up to its glyph count, its XftFontInfo, XftFtFile and XftGlyph), declared here to the last
   field read; `cx11_xft_font_holds_face` checks it against what is known of a font just
   opened, and a font that does not match is never given a face other than its first. */
struct cx11_xft_face_file {          /* XftFtFile: what Xft locks to load glyphs */
    struct cx11_xft_face_file *next;
    int ref;
    char *file;                      /* NULL for a font on a face its opener owns */
    int id;
    FT_F26Dot6 xsize, ysize;         /* the size last set on the face; 0: none yet */
    FT_Matrix matrix;
    int lock;
    FT_Face face;
};
struct cx11_xft_glyph {              /* XftGlyph, to its memory */
    XGlyphInfo metrics;
    void *bitmap;
    unsigned long glyph_memory;      /* nonzero once rendered */
};
struct cx11_xft_font {               /* XftFontInt, to its glyph count */
    XftFont public;
    XftFont *next, *hash_next;
    struct {                         /* XftFontInfo */
        FcChar32 hash;
        struct cx11_xft_face_file *file;
        FT_F26Dot6 xsize, ysize;
        FcBool antialias, embolden, color;
        int rgba, lcd_filter;
        FT_Matrix matrix;
        FcBool transform;
        FT_Int load_flags;
        FcBool render;
        int spacing;
        FcBool minspace;
        int char_width;
    } info;
    int ref;
    struct cx11_xft_glyph **glyphs;  /* right after the record, one entry per glyph */
    FT_UInt num_glyphs;              /* the face's glyphs and one */
};

/* Whether `font`, just opened by XftFontOpenPattern on `face` (an `ftface` pattern), has the
   record above: its face file is its own and holds `face`, unlocked, and its glyph table
   follows the record with an entry per glyph of the face and one. */
static inline int cx11_xft_font_holds_face(XftFont *font, FT_Face face) {
    const struct cx11_xft_font *record = (const struct cx11_xft_font *)font;
    const char *start = (const char *)font;
    const char *table = (const char *)record->glyphs;
    if (table < start + sizeof *record || table > start + 1024) return 0;
    if (record->num_glyphs != (FT_UInt)face->num_glyphs + 1) return 0;
    const struct cx11_xft_face_file *file = record->info.file;
    return file && file->face == face && file->file == NULL && file->ref == 1 && file->lock == 0;
}

/* Whether Xft has rendered every one of `glyphs` in `font`, so that drawing or measuring them
   loads nothing from the face (Xft's XftFontCheckGlyph asks the same: an entry, with memory).
   Glyph numbers past the face's are never loaded. Only for a font `cx11_xft_font_holds_face`
   accepted. */
static inline int cx11_xft_font_has_glyphs(XftFont *font, const FT_UInt *glyphs, int count) {
    const struct cx11_xft_font *record = (const struct cx11_xft_font *)font;
    for (int i = 0; i < count; i++) {
        if (glyphs[i] >= record->num_glyphs) continue;
        const struct cx11_xft_glyph *glyph = record->glyphs[glyphs[i]];
        if (!glyph || !glyph->glyph_memory) return 0;
    }
    return 1;
}

/* Gives `font` (accepted by `cx11_xft_font_holds_face`) another face, or none (NULL): Xft then
   sets the face's size and transform when it next locks it, as for a face it opened again
   itself. With none, a glyph Xft would load is left undrawn (FT_New_Face refuses Xft's NULL
   file name), never read from a face that is gone. Returns 0, changing nothing, while Xft has
   the face locked. */
static inline int cx11_xft_font_set_face(XftFont *font, FT_Face face) {
    struct cx11_xft_face_file *file = ((struct cx11_xft_font *)font)->info.file;
    if (file->lock != 0) return 0;
    file->face = face;
    file->xsize = 0;
    file->ysize = 0;
    memset(&file->matrix, 0, sizeof file->matrix);
    return 1;
}

/* libdispatch's main queue, drained by the run loop as Foundation's CFRunLoop drains it on
   Linux: the queue pokes an eventfd when work arrives (`_dispatch_get_main_queue_port_4CF`) and
   `_dispatch_main_queue_callback_4CF` runs what is queued. Both are exported by libdispatch for
   CoreFoundation but declared in no installed header, so they are looked up at run time: a
   toolchain without them leaves X11UI working, minus the main queue. Only the process's main
   thread may drain the queue, and only before dispatch_main() hands the queue to worker
   threads (which an `async` main does). */
struct cx11_main_queue {
    int port;
    void (*callback)(void *);
};

static inline struct cx11_main_queue cx11_main_queue_open(void) {
    struct cx11_main_queue queue = {-1, NULL};
    if (getpid() != (pid_t)syscall(SYS_gettid)) return queue;
    void *global = dlopen(NULL, RTLD_LAZY);
    if (!global) return queue;
    int (*port)(void) = (int (*)(void))dlsym(global, "_dispatch_get_main_queue_port_4CF");
    void (*callback)(void *) = (void (*)(void *))dlsym(global, "_dispatch_main_queue_callback_4CF");
    if (port && callback) {
        queue.port = port();
        queue.callback = callback;
    }
    return queue;
}

static inline void cx11_main_queue_drain(struct cx11_main_queue queue) {
    if (queue.callback) queue.callback(NULL);
}

static inline int cx11_is_main_thread(void) { return getpid() == (pid_t)syscall(SYS_gettid); }

/* libthai's word breaker, loaded the first time a line of Thai is wrapped (most programs never
   load it). The dictionary is libthai-data's; th_brk_new(NULL) finds it. */
struct cx11_thai {
    void *library;
    void *breaker;
    void (*delete_breaker)(void *);
    int (*find_breaks)(void *, const wchar_t *, int *, size_t);
};

/* Opens libthai and its dictionary; returns 0 (and leaves nothing open) when either is missing. */
static inline int cx11_thai_load(struct cx11_thai *thai) {
    memset(thai, 0, sizeof *thai);
    void *library = dlopen("libthai.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    void *(*create)(const char *) = (void *(*)(const char *))dlsym(library, "th_brk_new");
    thai->delete_breaker = (void (*)(void *))dlsym(library, "th_brk_delete");
    thai->find_breaks = (int (*)(void *, const wchar_t *, int *, size_t))dlsym(library, "th_brk_wc_find_breaks");
    void *breaker = create && thai->delete_breaker && thai->find_breaks ? create(NULL) : NULL;
    if (!breaker) {
        dlclose(library);
        memset(thai, 0, sizeof *thai);
        return 0;
    }
    thai->library = library;
    thai->breaker = breaker;
    return 1;
}

/* The word boundaries of a NUL-terminated run of Thai text (as scalars): writes at most
   `capacity` positions (scalar offsets where a word starts) and returns how many. */
static inline int cx11_thai_breaks(const struct cx11_thai *thai, const uint32_t *text, int *positions,
                                   int capacity) {
    if (!thai->breaker || sizeof(wchar_t) != sizeof(uint32_t)) return 0;
    return thai->find_breaks(thai->breaker, (const wchar_t *)text, positions, (size_t)capacity);
}

/* ICU's break iterator (libicuuc), for the dictionary scripts libthai does not cover: Lao, Khmer,
   Myanmar, and Thai when libthai is missing. Loaded the first time a run of such a script is
   broken, never linked (most programs never load it). ICU's C symbols carry its major version as
   a suffix (ubrk_open_72): the library is opened by soname, newest first, and the suffix is that
   soname's version, or any other that resolves, or none (a build without renaming). */
struct cx11_icu {
    void *library;
    int version;
    void *(*open)(int, const char *, const uint16_t *, int32_t, int *);
    void (*set_text)(void *, const uint16_t *, int32_t, int *);
    int32_t (*first)(void *);
    int32_t (*next)(void *);
    void (*close)(void *);
};

/* ICU's UBreakIteratorType values. */
enum { CX11_ICU_WORD = 1, CX11_ICU_LINE = 2 };

static inline void *cx11_icu_symbol(void *library, const char *name, const char *suffix) {
    char full[64];
    snprintf(full, sizeof full, "%s%s", name, suffix);
    return dlsym(library, full);
}

/* Opens libicuuc, trying its sonames from version `newest` down to `oldest` (80 and 60); returns
   0 (and leaves nothing open) when none is there or its break iterator cannot be found. */
static inline int cx11_icu_load(struct cx11_icu *icu, int newest, int oldest) {
    memset(icu, 0, sizeof *icu);
    void *library = NULL;
    int version = 0;
    for (int candidate = newest; candidate >= oldest && !library; candidate--) {
        char soname[32];
        snprintf(soname, sizeof soname, "libicuuc.so.%d", candidate);
        library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (library) version = candidate;
    }
    if (!library) return 0;
    char suffix[8] = "";
    snprintf(suffix, sizeof suffix, "_%d", version);
    if (!cx11_icu_symbol(library, "ubrk_open", suffix)) {
        suffix[0] = 0;
        for (int candidate = 80; candidate >= 60; candidate--) {
            char other[8];
            snprintf(other, sizeof other, "_%d", candidate);
            if (cx11_icu_symbol(library, "ubrk_open", other)) {
                memcpy(suffix, other, sizeof other);
                break;
            }
        }
    }
    icu->open = (void *(*)(int, const char *, const uint16_t *, int32_t, int *))cx11_icu_symbol(library, "ubrk_open",
                                                                                               suffix);
    icu->set_text = (void (*)(void *, const uint16_t *, int32_t, int *))cx11_icu_symbol(library, "ubrk_setText",
                                                                                       suffix);
    icu->first = (int32_t (*)(void *))cx11_icu_symbol(library, "ubrk_first", suffix);
    icu->next = (int32_t (*)(void *))cx11_icu_symbol(library, "ubrk_next", suffix);
    icu->close = (void (*)(void *))cx11_icu_symbol(library, "ubrk_close", suffix);
    if (!icu->open || !icu->set_text || !icu->first || !icu->next || !icu->close) {
        dlclose(library);
        memset(icu, 0, sizeof *icu);
        return 0;
    }
    icu->library = library;
    icu->version = version;
    return 1;
}

/* Closes the library cx11_icu_load opened (its iterators closed first). */
static inline void cx11_icu_unload(struct cx11_icu *icu) {
    if (icu->library) dlclose(icu->library);
    memset(icu, 0, sizeof *icu);
}

/* A break iterator of `type` for `locale` ("lo", "km", "my", "th"), without text; NULL when ICU
   fails (its data missing). Close it with cx11_icu_close. */
static inline void *cx11_icu_open(const struct cx11_icu *icu, int type, const char *locale) {
    if (!icu->open) return NULL;
    int status = 0;
    void *iterator = icu->open(type, locale, NULL, 0, &status);
    if (status > 0) {
        if (iterator) icu->close(iterator);
        return NULL;
    }
    return iterator;
}

static inline void cx11_icu_close(const struct cx11_icu *icu, void *iterator) {
    if (icu->close && iterator) icu->close(iterator);
}

/* The boundaries `iterator` finds in `text` (UTF-16, `length` units) strictly between its start
   and end: writes at most `capacity` UTF-16 offsets and returns how many (0 when ICU fails). */
static inline int cx11_icu_breaks(const struct cx11_icu *icu, void *iterator, const uint16_t *text, int32_t length,
                                  int32_t *positions, int capacity) {
    if (!icu->set_text || !iterator || length <= 0) return 0;
    int status = 0;
    icu->set_text(iterator, text, length, &status);
    if (status > 0) return 0;
    int count = 0;
    icu->first(iterator);
    for (int32_t position = icu->next(iterator); position >= 0 && position < length && count < capacity;
         position = icu->next(iterator)) {
        if (position > 0) positions[count++] = position;
    }
    return count;
}

#endif
