// Interface descriptions written from the protocol's definition (wlr-protocols,
// wlr-foreign-toplevel-management-unstable-v1, version 3): names, argument
// signatures and the interfaces of object arguments, in the protocol's order,
// which is what libwayland marshals by.
#include "wayland_toplevel.h"

extern const struct wl_interface wl_output_interface;
extern const struct wl_interface wl_seat_interface;
extern const struct wl_interface wl_surface_interface;

static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL, NULL };
static const struct wl_interface *new_handle_types[] = { &daydream_toplevel_handle_interface };
static const struct wl_interface *seat_types[] = { &wl_seat_interface };
static const struct wl_interface *rectangle_types[] = { &wl_surface_interface, NULL, NULL, NULL, NULL };
static const struct wl_interface *output_types[] = { &wl_output_interface };
static const struct wl_interface *parent_types[] = { &daydream_toplevel_handle_interface };

static const struct wl_message manager_requests[] = {
    { "stop", "", no_types },
};
static const struct wl_message manager_events[] = {
    { "toplevel", "n", new_handle_types },
    { "finished", "", no_types },
};
const struct wl_interface daydream_toplevel_manager_interface = {
    "zwlr_foreign_toplevel_manager_v1", 3, 1, manager_requests, 2, manager_events,
};

static const struct wl_message handle_requests[] = {
    { "set_maximized", "", no_types },
    { "unset_maximized", "", no_types },
    { "set_minimized", "", no_types },
    { "unset_minimized", "", no_types },
    { "activate", "o", seat_types },
    { "close", "", no_types },
    { "set_rectangle", "oiiii", rectangle_types },
    { "destroy", "", no_types },
    { "set_fullscreen", "2?o", output_types },
    { "unset_fullscreen", "2", no_types },
};
static const struct wl_message handle_events[] = {
    { "title", "s", no_types },
    { "app_id", "s", no_types },
    { "output_enter", "o", output_types },
    { "output_leave", "o", output_types },
    { "state", "a", no_types },
    { "done", "", no_types },
    { "closed", "", no_types },
    { "parent", "3?o", parent_types },
};
const struct wl_interface daydream_toplevel_handle_interface = {
    "zwlr_foreign_toplevel_handle_v1", 3, 10, handle_requests, 8, handle_events,
};

enum { MANAGER_STOP = 0, HANDLE_DESTROY = 7 };

struct wl_registry *daydream_registry(struct wl_display *display, const struct wl_registry_listener *listener, void *data) {
    struct wl_registry *registry = wl_display_get_registry(display);
    if (registry) wl_registry_add_listener(registry, listener, data);
    return registry;
}

struct wl_proxy *daydream_bind_toplevel_manager(struct wl_registry *registry, uint32_t name, uint32_t version) {
    uint32_t bound = version < 3 ? version : 3;
    return wl_registry_bind(registry, name, &daydream_toplevel_manager_interface, bound);
}

int daydream_toplevel_manager_listen(struct wl_proxy *manager, const struct daydream_toplevel_manager_listener *listener, void *data) {
    return wl_proxy_add_listener(manager, (void (**)(void))listener, data);
}

int daydream_toplevel_handle_listen(struct wl_proxy *handle, const struct daydream_toplevel_handle_listener *listener, void *data) {
    return wl_proxy_add_listener(handle, (void (**)(void))listener, data);
}

void daydream_toplevel_manager_stop(struct wl_proxy *manager) {
    wl_proxy_marshal_flags(manager, MANAGER_STOP, NULL, wl_proxy_get_version(manager), 0);
}

void daydream_toplevel_handle_destroy(struct wl_proxy *handle) {
    wl_proxy_marshal_flags(handle, HANDLE_DESTROY, NULL, wl_proxy_get_version(handle), WL_MARSHAL_FLAG_DESTROY);
}
