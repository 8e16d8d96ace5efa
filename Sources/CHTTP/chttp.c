#include "chttp.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>

/* The soname Debian's libmicrohttpd12 installs. */
#define CHTTP_LIBRARY "libmicrohttpd.so.12"

/* Each call as dlsym() found it; typed from the header's declarations, which link nothing. */
static struct {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_get_daemon_info) *get_daemon_info;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_run) *run;
    __typeof__(MHD_get_timeout) *get_timeout;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_create_response_from_callback) *create_response_from_callback;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_get_connection_values) *get_connection_values;
    __typeof__(MHD_suspend_connection) *suspend_connection;
    __typeof__(MHD_resume_connection) *resume_connection;
    __typeof__(MHD_get_connection_info) *get_connection_info;
} mhd;

static int loaded;
static char load_error[512];

/* Finds `name` in `library` into `*slot`; false (and load_error set) when it is missing. */
static int find(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        snprintf(load_error, sizeof load_error, "%s has no %s", CHTTP_LIBRARY, name);
        return 0;
    }
    return 1;
}

int chttp_load(void) {
    if (loaded) return 0;
    void *library = dlopen(CHTTP_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why != NULL ? why : "cannot load " CHTTP_LIBRARY);
        return -1;
    }
    int found = find(library, "MHD_start_daemon", (void **)&mhd.start_daemon)
        && find(library, "MHD_get_daemon_info", (void **)&mhd.get_daemon_info)
        && find(library, "MHD_stop_daemon", (void **)&mhd.stop_daemon)
        && find(library, "MHD_run", (void **)&mhd.run)
        && find(library, "MHD_get_timeout", (void **)&mhd.get_timeout)
        && find(library, "MHD_create_response_from_buffer", (void **)&mhd.create_response_from_buffer)
        && find(library, "MHD_create_response_from_callback", (void **)&mhd.create_response_from_callback)
        && find(library, "MHD_add_response_header", (void **)&mhd.add_response_header)
        && find(library, "MHD_queue_response", (void **)&mhd.queue_response)
        && find(library, "MHD_destroy_response", (void **)&mhd.destroy_response)
        && find(library, "MHD_get_connection_values", (void **)&mhd.get_connection_values)
        && find(library, "MHD_suspend_connection", (void **)&mhd.suspend_connection)
        && find(library, "MHD_resume_connection", (void **)&mhd.resume_connection)
        && find(library, "MHD_get_connection_info", (void **)&mhd.get_connection_info);
    if (!found) {
        dlclose(library);
        return -1;
    }
    loaded = 1; /* kept loaded for the process's life */
    return 0;
}

const char *chttp_load_error(void) {
    return load_error;
}

struct MHD_Daemon *chttp_start(const struct sockaddr *address,
                               MHD_AccessHandlerCallback handler, void *handler_context,
                               MHD_RequestCompletedCallback completed, void *completed_context,
                               MHD_NotifyConnectionCallback notify, void *notify_context,
                               unsigned int connection_limit, size_t memory_limit, unsigned int timeout_seconds) {
    if (!loaded) {
        errno = ENOSYS;
        return NULL;
    }
    unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    return mhd.start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_END);
}

int chttp_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

unsigned short chttp_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void chttp_stop_daemon(struct MHD_Daemon *daemon) { mhd.stop_daemon(daemon); }

enum MHD_Result chttp_run(struct MHD_Daemon *daemon) { return mhd.run(daemon); }

enum MHD_Result chttp_get_timeout(struct MHD_Daemon *daemon, MHD_UNSIGNED_LONG_LONG *timeout) {
    return mhd.get_timeout(daemon, timeout);
}

struct MHD_Response *chttp_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return mhd.create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *chttp_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback reader,
                                                         void *reader_context, MHD_ContentReaderFreeCallback free_reader) {
    return mhd.create_response_from_callback(size, block_size, reader, reader_context, free_reader);
}

enum MHD_Result chttp_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return mhd.add_response_header(response, header, content);
}

enum MHD_Result chttp_queue_response(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    return mhd.queue_response(connection, status, response);
}

void chttp_destroy_response(struct MHD_Response *response) { mhd.destroy_response(response); }

int chttp_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                void *iterator_context) {
    return mhd.get_connection_values(connection, kind, iterator, iterator_context);
}

void chttp_suspend_connection(struct MHD_Connection *connection) { mhd.suspend_connection(connection); }

void chttp_resume_connection(struct MHD_Connection *connection) { mhd.resume_connection(connection); }

int chttp_shutdown_connection(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) {
        errno = EBADF;
        return -1;
    }
    return shutdown(info->connect_fd, SHUT_RDWR);
}
