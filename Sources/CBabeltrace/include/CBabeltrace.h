/*
 * CBabeltrace: plain C functions over the babeltrace2 library, to read CTF traces (LTTng
 * trace directories, or a live LTTng session through lttng-relayd) one event at a time.
 *
 * Swift sees only these functions and structs. The reader is generic: it knows CTF, not the
 * SessionTrace vocabulary. Each event comes with its class (name and payload field names, the
 * same pointer for every event of that class) and its payload values in field order, so the
 * caller maps names to positions once per class and reads each event by position.
 *
 * Every pointer handed out (names, strings, arrays) stays valid until the next call of
 * st_ctf_next() on the same reader; class pointers stay valid until st_ctf_close().
 *
 * A trace on disk is decoded on a thread the reader starts, a few batches of events ahead of the
 * caller; a reader is still called from one thread at a time.
 */
#ifndef CBABELTRACE_H
#define CBABELTRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct st_ctf_reader st_ctf_reader;

/* What st_ctf_next() found. */
enum st_ctf_status {
    ST_CTF_EVENT = 0,     /* *event holds one event record */
    ST_CTF_DISCARDED = 1, /* *event holds a count of records the tracer had to discard */
    ST_CTF_AGAIN = 2,     /* live only: nothing new yet; call again later */
    ST_CTF_END = 3,       /* no more events: the trace is read, or the live session is gone */
    ST_CTF_ERROR = 4,     /* the trace cannot be read further; st_ctf_error() says why */
};

/* The type of one payload value. */
enum st_ctf_value_type {
    ST_CTF_SIGNED = 0,
    ST_CTF_UNSIGNED = 1,   /* `integer` holds the bits; values above INT64_MAX read negative */
    ST_CTF_REAL = 2,
    ST_CTF_STRING = 3,
    ST_CTF_ARRAY = 4,      /* an array or sequence of integers, in `array` */
    ST_CTF_OTHER = 5,      /* a structure, variant or option: not decoded */
};

/* One payload value: the member of the union that `type` names. */
struct st_ctf_value {
    int32_t type;
    /* ST_CTF_STRING: bytes before the NUL; ST_CTF_ARRAY: integers. */
    uint64_t length;
    union {
        int64_t integer;
        double real;
        /* ST_CTF_STRING: `length` bytes of UTF-8, then a NUL. */
        const char *string;
        /* ST_CTF_ARRAY: `length` integers. */
        const int64_t *array;
    };
};

/* One event class of one trace. */
struct st_ctf_class {
    /* Dense, from 0, in the order the reader first met the classes: a key for the caller's caches. */
    uint64_t index;
    const char *name;
    /* The class's model EMF URI (`model.emf.uri` in CTF metadata), NULL when it has none. */
    const char *emf_uri;
    uint64_t field_count;
    const char *const *field_names;
};

struct st_ctf_event {
    /* The event's class; NULL for ST_CTF_DISCARDED. */
    const struct st_ctf_class *event_class;
    /* event_class->field_count values, in field order. */
    const struct st_ctf_value *fields;
    /* The `vpid` context of the record, -1 when the trace was recorded without it. */
    int64_t vpid;
    /* Dense, from 0, per trace the reader met: records of one trace share it. */
    uint64_t trace_index;
    /* The trace's `hostname` environment entry, "" when it has none. */
    const char *hostname;
    /* The record's time on the trace's clock in cycles (ns for LTTng), -1 when it has none. */
    int64_t clock_value;
    /* ST_CTF_DISCARDED: how many records were discarded, 0 when the trace does not say. */
    uint64_t discarded;
};

/*
 * Opens the CTF traces in `directories` (each one directly holding a `metadata` file), merged
 * into one stream of events in time order. Returns NULL and writes one line to `error` when
 * they cannot be opened.
 */
st_ctf_reader *st_ctf_open_directories(const char *const *directories, size_t count, char *error,
                                       size_t error_size);

/*
 * Attaches to a live LTTng session through lttng-relayd's live protocol: `url` is
 * `net://HOST[:PORT]/host/TRACED_HOST/SESSION`. st_ctf_next() answers ST_CTF_AGAIN while the
 * session is quiet and ST_CTF_END once it is destroyed (or never existed).
 */
st_ctf_reader *st_ctf_open_live(const char *url, char *error, size_t error_size);

/*
 * Soon after this call, decodes only the payload fields of the class with index `class_index`
 * whose `wanted` entry is nonzero (`count` is the class's field_count); the others read as
 * ST_CTF_OTHER. Events decoded ahead of the call (a few batches) still hold every field, so a
 * caller reads only the fields it asked for. Every field is decoded until this is called.
 * Returns -1 for an unknown class or a wrong count, 0 otherwise.
 */
int st_ctf_select_fields(st_ctf_reader *reader, uint64_t class_index, const uint8_t *wanted,
                         uint64_t count);

/* Reads the next event into *event; see enum st_ctf_status. */
int st_ctf_next(st_ctf_reader *reader, struct st_ctf_event *event);

/* After ST_CTF_ERROR: the causes babeltrace2 gave, the root cause first, joined by " | ". */
const char *st_ctf_error(const st_ctf_reader *reader);

/* Releases the reader and everything it handed out. Accepts NULL. */
void st_ctf_close(st_ctf_reader *reader);

#ifdef __cplusplus
}
#endif

#endif /* CBABELTRACE_H */
