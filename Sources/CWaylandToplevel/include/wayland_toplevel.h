// The client side of wlroots' foreign toplevel management protocol
// (zwlr_foreign_toplevel_manager_v1, version 3), as follow-focus needs it, with
// the few calls Swift cannot make itself (libwayland's requests are variadic C).
#ifndef DAYDREAM_WAYLAND_TOPLEVEL_H
#define DAYDREAM_WAYLAND_TOPLEVEL_H

#include <stdint.h>
#include <wayland-client.h>

extern const struct wl_interface daydream_toplevel_manager_interface;
extern const struct wl_interface daydream_toplevel_handle_interface;

/// The manager's events: a new toplevel, and the end of the manager.
struct daydream_toplevel_manager_listener {
    void (*toplevel)(void *data, struct wl_proxy *manager, struct wl_proxy *handle);
    void (*finished)(void *data, struct wl_proxy *manager);
};

/// A toplevel's events, in the protocol's order.
struct daydream_toplevel_handle_listener {
    void (*title)(void *data, struct wl_proxy *handle, const char *title);
    void (*app_id)(void *data, struct wl_proxy *handle, const char *app_id);
    void (*output_enter)(void *data, struct wl_proxy *handle, struct wl_proxy *output);
    void (*output_leave)(void *data, struct wl_proxy *handle, struct wl_proxy *output);
    void (*state)(void *data, struct wl_proxy *handle, struct wl_array *state);
    void (*done)(void *data, struct wl_proxy *handle);
    void (*closed)(void *data, struct wl_proxy *handle);
    void (*parent)(void *data, struct wl_proxy *handle, struct wl_proxy *parent);
};

/// The `activated` value in a toplevel's state array.
#define DAYDREAM_TOPLEVEL_STATE_ACTIVATED 2

/// The registry of `display`, listened to with `listener`.
struct wl_registry *daydream_registry(struct wl_display *display, const struct wl_registry_listener *listener, void *data);
/// Binds the global `name` as the toplevel manager (at most version 3).
struct wl_proxy *daydream_bind_toplevel_manager(struct wl_registry *registry, uint32_t name, uint32_t version);
/// Listens to the manager's events.
int daydream_toplevel_manager_listen(struct wl_proxy *manager, const struct daydream_toplevel_manager_listener *listener, void *data);
/// Listens to a toplevel's events.
int daydream_toplevel_handle_listen(struct wl_proxy *handle, const struct daydream_toplevel_handle_listener *listener, void *data);
/// Tells the compositor to stop sending toplevels (it answers `finished`); then destroy the manager.
void daydream_toplevel_manager_stop(struct wl_proxy *manager);
/// Destroys a toplevel's handle (after `closed`, or when done with it).
void daydream_toplevel_handle_destroy(struct wl_proxy *handle);
/// The state array's values.
static inline const uint32_t *daydream_array_values(const struct wl_array *array, size_t *count) {
    *count = array->size / sizeof(uint32_t);
    return (const uint32_t *)array->data;
}

#endif
