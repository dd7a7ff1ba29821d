/*
 * CCurl: plain C functions over libcurl's variadic and macro API, for the HTTP transport.
 *
 * Swift calls libcurl's plain functions (curl_easy_init, curl_multi_poll, curl_slist_append, ...)
 * directly and these for what it cannot call: curl_easy_setopt and curl_easy_getinfo are
 * variadic, CURL_GLOBAL_DEFAULT and CURL_ERROR_SIZE are macros, CURLMsg holds a union.
 */
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* curl_global_init(CURL_GLOBAL_DEFAULT); call once before any other function. */
CURLcode ccurl_global_init(void);

/* The size of the buffer ccurl_easy_set_error_buffer takes (CURL_ERROR_SIZE). */
size_t ccurl_error_buffer_size(void);

/*
 * A POST of `body` (copied) to `url` with `headers` (kept, not copied: free them after the
 * transfer), no signals (the transfer runs on a thread of its own), and curl's error text
 * written to `error_buffer`.
 */
CURLcode ccurl_easy_set_post(CURL *easy, const char *url, const char *body, size_t body_length,
                             struct curl_slist *headers, char *error_buffer);

/* Callbacks for each header line and each chunk of the body, both handed `context`. */
CURLcode ccurl_easy_set_receivers(CURL *easy, curl_write_callback on_header,
                                  curl_write_callback on_body, void *context);

/* Gives up connecting after `milliseconds`. */
CURLcode ccurl_easy_set_connect_timeout(CURL *easy, long milliseconds);

/* Gives up the whole transfer after `milliseconds`. */
CURLcode ccurl_easy_set_timeout(CURL *easy, long milliseconds);

/* Trusts the certificate authorities in the PEM file at `path` instead of the system's. */
CURLcode ccurl_easy_set_ca_file(CURL *easy, const char *path);

/* The last response's HTTP status, or 0 before one arrived. */
long ccurl_easy_response_code(CURL *easy);

/* The last response's Content-Type, or NULL; owned by `easy`. */
const char *ccurl_easy_content_type(CURL *easy);

/*
 * The last response's Retry-After header in seconds from now, whether it was written as
 * delay-seconds or as an HTTP date (libcurl parses both); 0 when there was none, it was not
 * valid, or it said 0.
 */
long long ccurl_easy_retry_after(CURL *easy);

/* The address and port of the connection the transfer used; the address is owned by `easy`. */
const char *ccurl_easy_primary_ip(CURL *easy);
long ccurl_easy_primary_port(CURL *easy);

/* The transfer's phases so far, in microseconds from its start: name resolved, connected, TLS
 * done (0 without TLS), about to send, first byte received; 0 for a phase not reached. */
void ccurl_easy_phases(CURL *easy, long long microseconds[5]);

/*
 * A request of `method` (GET, POST, DELETE, ...) to `url` with `headers` and `body` (both kept, not
 * copied: they must outlive the transfer; the body is sent when `body_length` is not 0 or the
 * method is POST), no signals, redirects not
 * followed, the body handed over as it arrives (no decoding), and curl's error text written to
 * `error_buffer`. For the recording proxy, which forwards requests as they came.
 */
CURLcode ccurl_easy_set_request(CURL *easy, const char *url, const char *method, const char *body,
                                size_t body_length, struct curl_slist *headers, char *error_buffer);

/* What a body callback returns to pause the transfer until ccurl_easy_resume. */
size_t ccurl_write_pause(void);

/* Resumes a transfer that a body callback paused. */
CURLcode ccurl_easy_resume(CURL *easy);

/*
 * Waits at most `timeout_milliseconds` for the sockets of `multi`, or for `extra_socket` (when not
 * -1) to become readable or hang up: 1 when `extra_socket` did, 0 otherwise.
 */
int ccurl_multi_poll_with(CURLM *multi, int extra_socket, int timeout_milliseconds);

/* The body length the response announced, or -1 when it announced none. */
long long ccurl_easy_content_length(CURL *easy);

/*
 * The next finished transfer of `multi`: 1 with its handle and result, or 0 when no transfer
 * has finished since the last call.
 */
int ccurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result);

/*
 * A blocking GET of `url` within `timeout_milliseconds`, body discarded: the HTTP status, or
 * -1 when no answer came. For health probes.
 */
long ccurl_get_status(const char *url, long timeout_milliseconds);

#ifdef __cplusplus
}
#endif

#endif
