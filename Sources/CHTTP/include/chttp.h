#ifndef CHTTP_H
#define CHTTP_H

/* libmicrohttpd for Swift, loaded when the first server starts rather than linked: linked, it
   and GnuTLS under it take about 2.8 MB of every daydream-bridge process's memory, though only
   the editor page serves HTTP. The header gives the types; each call goes through a pointer
   dlsym() found, behind a chttp_ function of the same shape. The start, the epoll descriptor
   and the port are also the calls Swift cannot make itself, being variadic. */

#include <sys/socket.h>
#include <microhttpd.h>

/* Loads libmicrohttpd (once). 0 when it is loaded; -1 when it cannot be, and then
   chttp_load_error() says why. */
int chttp_load(void);

/* Why the last chttp_load() failed, e.g. that libmicrohttpd.so.12 is not installed. */
const char *chttp_load_error(void);

/* Starts a daemon that listens on `address` and does no I/O of its own: the caller watches
   chttp_epoll_fd() and calls chttp_run() when it is readable and when chttp_get_timeout()
   says. Connections may be suspended (Server-Sent Events). `notify` hears of each connection
   as it starts and as it closes. At most `connection_limit` connections, `memory_limit` bytes
   each, closed after `timeout_seconds` idle. NULL on failure (errno set). Call chttp_load()
   first. */
struct MHD_Daemon *chttp_start(const struct sockaddr *address,
                               MHD_AccessHandlerCallback handler, void *handler_context,
                               MHD_RequestCompletedCallback completed, void *completed_context,
                               MHD_NotifyConnectionCallback notify, void *notify_context,
                               unsigned int connection_limit, size_t memory_limit, unsigned int timeout_seconds);

/* Shuts a connection's socket down both ways (shutdown(2)): libmicrohttpd sees it end on its
   next run and closes it. 0, or -1 with errno set. */
int chttp_shutdown_connection(struct MHD_Connection *connection);

/* The daemon's epoll descriptor, -1 when it has none. */
int chttp_epoll_fd(struct MHD_Daemon *daemon);

/* The port it listens on (the one the kernel chose for port 0), 0 when unknown. */
unsigned short chttp_port(struct MHD_Daemon *daemon);

/* libmicrohttpd's calls of the same names without the chttp_ (MHD_run...), once loaded. */
void chttp_stop_daemon(struct MHD_Daemon *daemon);
enum MHD_Result chttp_run(struct MHD_Daemon *daemon);
enum MHD_Result chttp_get_timeout(struct MHD_Daemon *daemon, MHD_UNSIGNED_LONG_LONG *timeout);
struct MHD_Response *chttp_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
struct MHD_Response *chttp_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback reader,
                                                         void *reader_context, MHD_ContentReaderFreeCallback free_reader);
enum MHD_Result chttp_add_response_header(struct MHD_Response *response, const char *header, const char *content);
enum MHD_Result chttp_queue_response(struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response);
void chttp_destroy_response(struct MHD_Response *response);
int chttp_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                void *iterator_context);
void chttp_suspend_connection(struct MHD_Connection *connection);
void chttp_resume_connection(struct MHD_Connection *connection);

#endif
