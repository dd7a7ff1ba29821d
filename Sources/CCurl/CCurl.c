#include "CCurl.h"

#include <string.h>

CURLcode ccurl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

size_t ccurl_error_buffer_size(void) { return CURL_ERROR_SIZE; }

CURLcode ccurl_easy_set_post(CURL *easy, const char *url, const char *body, size_t body_length,
                             struct curl_slist *headers, char *error_buffer) {
    CURLcode code;
    if ((code = curl_easy_setopt(easy, CURLOPT_URL, url))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, body ? body : ""))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers))) return code;
    return curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
}

CURLcode ccurl_easy_set_receivers(CURL *easy, curl_write_callback on_header,
                                  curl_write_callback on_body, void *context) {
    CURLcode code;
    if ((code = curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_HEADERDATA, context))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body))) return code;
    return curl_easy_setopt(easy, CURLOPT_WRITEDATA, context);
}

CURLcode ccurl_easy_set_connect_timeout(CURL *easy, long milliseconds) {
    return curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds);
}

CURLcode ccurl_easy_set_timeout(CURL *easy, long milliseconds) {
    return curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, milliseconds);
}

CURLcode ccurl_easy_set_ca_file(CURL *easy, const char *path) {
    return curl_easy_setopt(easy, CURLOPT_CAINFO, path);
}

long ccurl_easy_response_code(CURL *easy) {
    long status = 0;
    return curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK ? status : 0;
}

const char *ccurl_easy_content_type(CURL *easy) {
    char *type = NULL;
    return curl_easy_getinfo(easy, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK ? type : NULL;
}

long long ccurl_easy_retry_after(CURL *easy) {
    curl_off_t seconds = 0;
    return curl_easy_getinfo(easy, CURLINFO_RETRY_AFTER, &seconds) == CURLE_OK ? (long long)seconds : 0;
}

const char *ccurl_easy_primary_ip(CURL *easy) {
    char *address = NULL;
    return curl_easy_getinfo(easy, CURLINFO_PRIMARY_IP, &address) == CURLE_OK ? address : NULL;
}

long ccurl_easy_primary_port(CURL *easy) {
    long port = 0;
    return curl_easy_getinfo(easy, CURLINFO_PRIMARY_PORT, &port) == CURLE_OK ? port : 0;
}

void ccurl_easy_phases(CURL *easy, long long microseconds[5]) {
    static const CURLINFO phases[5] = {CURLINFO_NAMELOOKUP_TIME_T, CURLINFO_CONNECT_TIME_T,
                                       CURLINFO_APPCONNECT_TIME_T, CURLINFO_PRETRANSFER_TIME_T,
                                       CURLINFO_STARTTRANSFER_TIME_T};
    for (int i = 0; i < 5; i++) {
        curl_off_t value = 0;
        microseconds[i] = curl_easy_getinfo(easy, phases[i], &value) == CURLE_OK ? (long long)value : 0;
    }
}

int ccurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &queued))) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

long ccurl_get_status(const char *url, long timeout_milliseconds) {
    CURL *easy = curl_easy_init();
    if (!easy) return -1;
    long status = -1;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_milliseconds);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    if (curl_easy_perform(easy) == CURLE_OK) curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(easy);
    return status;
}

CURLcode ccurl_easy_set_request(CURL *easy, const char *url, const char *method, const char *body,
                                size_t body_length, struct curl_slist *headers, char *error_buffer) {
    CURLcode code;
    if ((code = curl_easy_setopt(easy, CURLOPT_URL, url))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_HTTP_CONTENT_DECODING, 0L))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_HTTP_TRANSFER_DECODING, 1L))) return code;
    if (strcmp(method, "GET") == 0 && body_length == 0) return curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    if (strcmp(method, "HEAD") == 0) return curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    if ((code = curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length))) return code;
    if ((code = curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body && body_length > 0 ? body : ""))) return code;
    return strcmp(method, "POST") == 0 ? CURLE_OK : curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, method);
}

size_t ccurl_write_pause(void) { return CURL_WRITEFUNC_PAUSE; }

CURLcode ccurl_easy_resume(CURL *easy) { return curl_easy_pause(easy, CURLPAUSE_CONT); }

int ccurl_multi_poll_with(CURLM *multi, int extra_socket, int timeout_milliseconds) {
    struct curl_waitfd extra = {.fd = extra_socket, .events = CURL_WAIT_POLLIN, .revents = 0};
    int ready = 0;
    curl_multi_poll(multi, extra_socket >= 0 ? &extra : NULL, extra_socket >= 0 ? 1 : 0, timeout_milliseconds,
                    &ready);
    return extra_socket >= 0 && extra.revents != 0;
}

long long ccurl_easy_content_length(CURL *easy) {
    curl_off_t length = -1;
    return curl_easy_getinfo(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK ? (long long)length
                                                                                           : -1;
}
