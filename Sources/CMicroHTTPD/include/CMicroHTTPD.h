/*
 * CMicroHTTPD: plain C functions over libmicrohttpd, for the recording proxy's server side.
 *
 * MHD_start_daemon is variadic and its flags, status codes and reader results are macros; these
 * functions are what Swift calls instead. The daemon runs a thread per connection, so the
 * request handler and the body reader may block (on the upstream) without stalling others.
 */
#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct MHD_Daemon;
struct MHD_Connection;
struct MHD_Response;

/* What a body reader returns instead of a byte count. */
enum {
    CMHD_BODY_END = -1,   /* the body is complete */
    CMHD_BODY_ABORT = -2, /* the body cannot be completed: close the connection */
};

/* How a request ended, as told to the completion handler. */
enum {
    CMHD_ENDED_OK = 0,
    CMHD_ENDED_CLIENT_GONE = 1, /* the client closed or reset the connection, or it timed out */
    CMHD_ENDED_OTHER = 2,       /* the daemon stopped, or an error in the server */
};

/*
 * Called once per request, on the connection's own thread, when its body has arrived whole
 * (`body` is NUL-terminated after `body_length` bytes); `target` is the path and query as sent.
 * It must queue a response with cmhd_queue before it returns 1; 0 closes the connection. It may
 * set `*request_state`, which the completion handler is given.
 */
typedef int (*cmhd_request_handler)(void *context, struct MHD_Connection *connection, const char *method,
                                    const char *target, const char *body, size_t body_length,
                                    void **request_state);

/* Called once when a request ends, with what the request handler put in `request_state`. */
typedef void (*cmhd_completion_handler)(void *context, void *request_state, int how);

/*
 * Listens on `address` (an IPv4 or IPv6 literal: 127.0.0.1, ::1) and `port` (0 for any free one): at most `connection_limit`
 * connections, request bodies of at most `maximum_body` bytes (a longer one is answered 413), and
 * at most `maximum_held` bytes of bodies held by all connections at once (a body that would pass
 * it is answered 503 with Retry-After). NULL when the address is not an IP literal or the port cannot be bound.
 */
struct MHD_Daemon *cmhd_start(const char *address, uint16_t port, unsigned connection_limit, size_t maximum_body,
                              size_t maximum_held, cmhd_request_handler on_request, cmhd_completion_handler on_completed,
                              void *context);

/* The port the daemon listens on. */
uint16_t cmhd_port(struct MHD_Daemon *daemon);

/* Stops accepting connections; those open go on. */
void cmhd_stop_accepting(struct MHD_Daemon *daemon);

/* Connections open now. */
unsigned cmhd_open_connections(struct MHD_Daemon *daemon);

/* Closes every connection and stops the daemon's threads. */
void cmhd_stop(struct MHD_Daemon *daemon);

/* Calls `visit` with each request header, in the order the client sent them. */
typedef void (*cmhd_header_visitor)(void *context, const char *name, const char *value);
void cmhd_visit_request_headers(struct MHD_Connection *connection, cmhd_header_visitor visit, void *context);

/* The client socket, to notice that the client went away while the upstream is quiet. */
int cmhd_client_socket(struct MHD_Connection *connection);

/* Whether the client closed its side of `socket` (or reset it), without waiting. */
int cmhd_client_closed(int socket);

/* A response whose body is a copy of `length` bytes. */
struct MHD_Response *cmhd_response_from_copy(const void *bytes, size_t length);

/*
 * A response whose body `read` produces as it comes, on the connection's thread: it writes at
 * most `capacity` bytes to `buffer` and returns how many (never 0: it waits instead), or
 * CMHD_BODY_END, or CMHD_BODY_ABORT. `release` is called once when the response is done.
 * `length` is the body's size, or negative when unknown (the body is then sent chunked).
 */
typedef ssize_t (*cmhd_body_reader)(void *context, char *buffer, size_t capacity);
typedef void (*cmhd_body_release)(void *context);
struct MHD_Response *cmhd_response_from_reader(int64_t length, cmhd_body_reader read, cmhd_body_release release,
                                               void *context);

/* Adds a header to `response`; 0 when MHD refused it (a header it sets itself, or bad bytes). */
int cmhd_add_header(struct MHD_Response *response, const char *name, const char *value);

/* Queues `response` with `status` on `connection` and drops the caller's reference to it; 1 when queued. */
int cmhd_queue(struct MHD_Connection *connection, unsigned status, struct MHD_Response *response);

#ifdef __cplusplus
}
#endif

#endif
