#ifndef CHTTP_H
#define CHTTP_H

/* libmicrohttpd for Swift: its header, and the few calls Swift cannot make itself because
   they are variadic (starting the daemon, asking it for its epoll descriptor and port). */

#include <sys/socket.h>
#include <microhttpd.h>

/* Starts a daemon that listens on `address` and does no I/O of its own: the caller watches
   chttp_epoll_fd() and calls MHD_run() when it is readable and when MHD_get_timeout() says.
   Connections may be suspended (Server-Sent Events). At most `connection_limit` connections,
   `memory_limit` bytes each, closed after `timeout_seconds` idle. NULL on failure (errno set). */
struct MHD_Daemon *chttp_start(const struct sockaddr *address,
                               MHD_AccessHandlerCallback handler, void *handler_context,
                               MHD_RequestCompletedCallback completed, void *completed_context,
                               unsigned int connection_limit, size_t memory_limit, unsigned int timeout_seconds);

/* The daemon's epoll descriptor, -1 when it has none. */
int chttp_epoll_fd(struct MHD_Daemon *daemon);

/* The port it listens on (the one the kernel chose for port 0), 0 when unknown. */
unsigned short chttp_port(struct MHD_Daemon *daemon);

#endif
