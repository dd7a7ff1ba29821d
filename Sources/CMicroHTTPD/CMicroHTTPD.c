#define _GNU_SOURCE
#include "CMicroHTTPD.h"

#include <arpa/inet.h>
#include <unistd.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct server {
    cmhd_request_handler on_request;
    cmhd_completion_handler on_completed;
    void *context;
    size_t maximum_body;
    /* Bytes of request bodies held by all connections at once, at most maximum_held. */
    size_t maximum_held;
    atomic_size_t held;
    struct sockaddr_storage address;
};

/* One request's body as it arrives, and what the Swift side keeps for it. */
struct request {
    char *uri;
    int head_seen;
    char *body;
    size_t length;
    size_t capacity;
    int too_large;
    /* The server held too many bodies to take this one. */
    int too_busy;
    void *state;
};

static const char too_large_body[] =
    "{\"error\":{\"message\":\"request body too large for the recording proxy\",\"type\":\"proxy_error\"}}";
static const char too_busy_body[] =
    "{\"error\":{\"message\":\"the recording proxy holds too many request bodies at once; retry\","
    "\"type\":\"proxy_error\"}}";

/* Takes `size` bytes from the server's budget for request bodies: 0 when that would pass it. */
static int reserve(struct server *server, size_t size) {
    size_t held = atomic_fetch_add(&server->held, size);
    if (held + size <= server->maximum_held) return 1;
    atomic_fetch_sub(&server->held, size);
    return 0;
}

static enum MHD_Result on_access(void *cls, struct MHD_Connection *connection, const char *url,
                                 const char *method, const char *version, const char *upload_data,
                                 size_t *upload_data_size, void **con_cls) {
    (void)version;
    struct server *server = cls;
    struct request *request = *con_cls;
    if (request == NULL) return MHD_NO;
    if (!request->head_seen) {
        request->head_seen = 1;
        /* A body of announced length is reserved whole, at once: bodies that arrive together
           cannot each hold part of the budget and all be refused. */
        const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
        char *end = NULL;
        unsigned long long announced = length ? strtoull(length, &end, 10) : 0;
        if (announced == 0 || end == NULL || *end != 0) return MHD_YES;
        if (announced > server->maximum_body) {
            request->too_large = 1;
        } else if (!reserve(server, announced + 1)) {
            request->too_busy = 1;
        } else if ((request->body = malloc(announced + 1)) != NULL) {
            request->capacity = announced + 1;
        } else {
            atomic_fetch_sub(&server->held, announced + 1);
            return MHD_NO;
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t size = *upload_data_size;
        *upload_data_size = 0;
        if (request->too_large || request->too_busy) return MHD_YES;
        if (request->length + size > server->maximum_body) {
            request->too_large = 1;
            return MHD_YES;
        }
        if (request->length + size + 1 > request->capacity) {
            size_t capacity = request->capacity ? request->capacity : 4096;
            while (capacity < request->length + size + 1) capacity *= 2;
            if (!reserve(server, capacity - request->capacity)) {
                request->too_busy = 1;
                return MHD_YES;
            }
            char *grown = realloc(request->body, capacity);
            if (grown == NULL) {
                atomic_fetch_sub(&server->held, capacity - request->capacity);
                return MHD_NO;
            }
            request->body = grown;
            request->capacity = capacity;
        }
        memcpy(request->body + request->length, upload_data, size);
        request->length += size;
        request->body[request->length] = 0;
        return MHD_YES;
    }
    if (request->too_large) {
        struct MHD_Response *response = cmhd_response_from_copy(too_large_body, sizeof too_large_body - 1);
        cmhd_add_header(response, "Content-Type", "application/json");
        return cmhd_queue(connection, 413, response) ? MHD_YES : MHD_NO;
    }
    if (request->too_busy) {
        struct MHD_Response *response = cmhd_response_from_copy(too_busy_body, sizeof too_busy_body - 1);
        cmhd_add_header(response, "Content-Type", "application/json");
        cmhd_add_header(response, "Retry-After", "1");
        return cmhd_queue(connection, 503, response) ? MHD_YES : MHD_NO;
    }
    return server->on_request(server->context, connection, method, request->uri ? request->uri : url,
                              request->body ? request->body : "",
                              request->length, &request->state)
               ? MHD_YES
               : MHD_NO;
}

/* The request's target as the client sent it, query included (the access handler gets the path alone). */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    (void)connection;
    struct request *request = calloc(1, sizeof *request);
    if (request != NULL) request->uri = strdup(uri ? uri : "/");
    return request;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                         enum MHD_RequestTerminationCode code) {
    (void)connection;
    struct server *server = cls;
    struct request *request = *con_cls;
    if (request == NULL) return;
    int how = CMHD_ENDED_OTHER;
    if (code == MHD_REQUEST_TERMINATED_COMPLETED_OK) how = CMHD_ENDED_OK;
    else if (code == MHD_REQUEST_TERMINATED_CLIENT_ABORT || code == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED
             || code == MHD_REQUEST_TERMINATED_READ_ERROR)
        how = CMHD_ENDED_CLIENT_GONE;
    if (request->state) server->on_completed(server->context, request->state, how);
    atomic_fetch_sub(&server->held, request->capacity);
    free(request->uri);
    free(request->body);
    free(request);
    *con_cls = NULL;
}

struct MHD_Daemon *cmhd_start(const char *address, uint16_t port, unsigned connection_limit, size_t maximum_body,
                              size_t maximum_held, cmhd_request_handler on_request, cmhd_completion_handler on_completed_handler,
                              void *context) {
    struct server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->on_request = on_request;
    server->on_completed = on_completed_handler;
    server->context = context;
    server->maximum_body = maximum_body;
    server->maximum_held = maximum_held;
    atomic_init(&server->held, 0);
    unsigned family_flag = 0;
    struct sockaddr_in *ipv4 = (struct sockaddr_in *)&server->address;
    struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)&server->address;
    if (inet_pton(AF_INET, address, &ipv4->sin_addr) == 1) {
        ipv4->sin_family = AF_INET;
        ipv4->sin_port = htons(port);
    } else if (inet_pton(AF_INET6, address, &ipv6->sin6_addr) == 1) {
        ipv6->sin6_family = AF_INET6;
        ipv6->sin6_port = htons(port);
        family_flag = MHD_USE_IPv6;
    } else {
        free(server);
        return NULL;
    }
    /* The server struct lives as long as the process: a daemon is started once. */
    return MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL
                                | MHD_USE_ERROR_LOG | family_flag,
                            port, NULL, NULL, on_access, server, MHD_OPTION_SOCK_ADDR, &server->address,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_NOTIFY_COMPLETED,
                            on_completed, server, MHD_OPTION_URI_LOG_CALLBACK, on_uri, server, MHD_OPTION_END);
}

uint16_t cmhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

void cmhd_stop_accepting(struct MHD_Daemon *daemon) {
    MHD_socket socket = MHD_quiesce_daemon(daemon);
    if (socket != MHD_INVALID_SOCKET) close(socket);
}

unsigned cmhd_open_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

void cmhd_stop(struct MHD_Daemon *daemon) { MHD_stop_daemon(daemon); }

struct visit {
    cmhd_header_visitor visit;
    void *context;
};

static enum MHD_Result visit_header(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct visit *visit = cls;
    visit->visit(visit->context, key, value ? value : "");
    return MHD_YES;
}

void cmhd_visit_request_headers(struct MHD_Connection *connection, cmhd_header_visitor visit, void *context) {
    struct visit state = {visit, context};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, visit_header, &state);
}

int cmhd_client_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

int cmhd_client_closed(int socket) {
    struct pollfd poller = {.fd = socket, .events = POLLIN | POLLRDHUP};
    if (poll(&poller, 1, 0) <= 0) return 0;
    if (poller.revents & (POLLHUP | POLLERR | POLLRDHUP)) return 1;
    char byte;
    ssize_t got = recv(socket, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

struct MHD_Response *cmhd_response_from_copy(const void *bytes, size_t length) {
    return MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_MUST_COPY);
}

struct reader {
    cmhd_body_reader read;
    cmhd_body_release release;
    void *context;
};

static ssize_t read_body(void *cls, uint64_t position, char *buffer, size_t capacity) {
    (void)position;
    struct reader *reader = cls;
    ssize_t got = reader->read(reader->context, buffer, capacity);
    if (got == CMHD_BODY_END) return MHD_CONTENT_READER_END_OF_STREAM;
    if (got < 0) return MHD_CONTENT_READER_END_WITH_ERROR;
    return got;
}

static void release_body(void *cls) {
    struct reader *reader = cls;
    reader->release(reader->context);
    free(reader);
}

struct MHD_Response *cmhd_response_from_reader(int64_t length, cmhd_body_reader read, cmhd_body_release release,
                                               void *context) {
    struct reader *reader = malloc(sizeof *reader);
    if (reader == NULL) return NULL;
    reader->read = read;
    reader->release = release;
    reader->context = context;
    /* 16 KiB: libcurl hands the body over in pieces of at most that size. */
    struct MHD_Response *response = MHD_create_response_from_callback(
        length < 0 ? MHD_SIZE_UNKNOWN : (uint64_t)length, 16 * 1024, read_body, reader, release_body);
    if (response == NULL) free(reader);
    return response;
}

int cmhd_add_header(struct MHD_Response *response, const char *name, const char *value) {
    return MHD_add_response_header(response, name, value) == MHD_YES;
}

int cmhd_queue(struct MHD_Connection *connection, unsigned status, struct MHD_Response *response) {
    if (response == NULL) return 0;
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued == MHD_YES;
}
