/*
 * The CTF reader of include/CBabeltrace.h: a babeltrace2 graph of one or more sources
 * (src.ctf.fs per trace directory, or src.ctf.lttng-live), a muxer that merges their streams
 * in time order, and a simple sink whose messages are decoded into batches that st_ctf_next()
 * hands out one event at a time.
 *
 * A trace on disk is decoded on a thread of the reader's own, a few batches ahead of the caller,
 * so babeltrace2's decoding and the caller's work on the events run at once on two cores. A live
 * session is decoded in st_ctf_next() itself: it must answer ST_CTF_AGAIN when nothing is new.
 * Both fill batches with the same code.
 */
#include "CBabeltrace.h"

#include <babeltrace2/babeltrace.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Events per batch: enough that handing a batch over costs little per event, few enough that the
 * batch is still in the cache when the other side reads it. */
enum { BATCH_EVENTS = 512, BATCH_COUNT = 16 };

struct class_entry {
    const bt_event_class *event_class; /* a reference we hold */
    struct st_ctf_class public_class;
    const char **field_names;
    /* The class type of each payload member, fixed by the class: looked up once, not per event. */
    bt_field_class_type *field_types;
    /* The members decoded, in order: every one until st_ctf_select_fields() names fewer. */
    uint64_t *decoded;
    uint64_t decoded_count;
    /* The selection st_ctf_select_fields() asked for, applied when the next batch is filled. */
    uint8_t *wanted;
    int selection_pending;
    int64_t vpid_index; /* member of the common context, -1 if none */
};

struct trace_entry {
    const bt_trace *trace; /* a reference we hold */
    const char *hostname;  /* borrowed from the trace's environment */
};

/* Decoded events. Every pointer in them points into the batch's own storage or at classes and
 * traces the reader keeps, so an event stays readable however far babeltrace2 has gone on. While
 * a batch is filled, string and array values hold offsets into `bytes` and `integers` (which may
 * still move), and events their offset into `values`; finish_batch() turns them into pointers. */
struct batch {
    struct st_ctf_event events[BATCH_EVENTS];
    int statuses[BATCH_EVENTS]; /* ST_CTF_EVENT or ST_CTF_DISCARDED */
    uint64_t value_offsets[BATCH_EVENTS];
    const struct class_entry *classes[BATCH_EVENTS];
    uint64_t count, position;
    /* What follows the events: 0 when more batches do, else ST_CTF_AGAIN, ST_CTF_END or ST_CTF_ERROR. */
    int final_status;
    struct st_ctf_value *values;
    uint64_t value_count, value_capacity;
    char *bytes;
    uint64_t byte_count, byte_capacity;
    int64_t *integers;
    uint64_t integer_count, integer_capacity;
};

struct st_ctf_reader {
    bt_graph *graph;
    bt_message_iterator *iterator;
    /* The messages the sink took last, and how far the batch filling got in them. */
    const bt_message *messages[64];
    uint64_t message_count, message_position;
    /* 0 while the graph runs, then ST_CTF_END or ST_CTF_ERROR. */
    int graph_status;

    struct class_entry **classes;
    uint64_t class_count, class_capacity, last_class;
    struct trace_entry *traces;
    uint64_t trace_count, trace_capacity, last_trace;

    char *error;

    struct batch batches[BATCH_COUNT];
    /* The batch st_ctf_next() reads, NULL before the first. */
    struct batch *reading;
    /* Whether a thread fills the batches (a trace on disk) or st_ctf_next() does (live). */
    int threaded, started, stopping;
    pthread_t thread;
    /* Guards the counters below, `stopping`, the class list and each class's `wanted`. */
    pthread_mutex_t lock;
    pthread_cond_t filled, emptied;
    /* Batches filled and batches read so far; batch n is batches[n % BATCH_COUNT]. */
    uint64_t fill_count, read_count;
};

/* MARK: - Errors */

static void set_error(char **slot, const char *format, ...) {
    char buffer[2048];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(buffer, sizeof buffer, format, arguments);
    va_end(arguments);
    free(*slot);
    *slot = strdup(buffer);
}

/* Takes the current thread's babeltrace2 error and appends its causes, root cause first. */
static void take_library_error(char **slot, const char *context) {
    char buffer[4096];
    size_t used = (size_t)snprintf(buffer, sizeof buffer, "%s", context);
    const bt_error *error = bt_current_thread_take_error();
    if (error) {
        uint64_t count = bt_error_get_cause_count(error);
        /* Cause 0 is the root: the one that says what is wrong with the file. */
        for (uint64_t i = 0; i < count && used < sizeof buffer - 1; i++) {
            const bt_error_cause *cause = bt_error_borrow_cause_by_index(error, i);
            used += (size_t)snprintf(buffer + used, sizeof buffer - used, " | %s",
                                     bt_error_cause_get_message(cause));
        }
        bt_error_release(error);
    }
    free(*slot);
    *slot = strdup(buffer);
}

/* MARK: - The sink */

static bt_graph_simple_sink_component_initialize_func_status sink_initialize(
    bt_message_iterator *iterator, void *user_data) {
    struct st_ctf_reader *reader = user_data;
    reader->iterator = iterator;
    return BT_GRAPH_SIMPLE_SINK_COMPONENT_INITIALIZE_FUNC_STATUS_OK;
}

/* Takes one array of messages; fill_batch() walks it and releases each message. */
static bt_graph_simple_sink_component_consume_func_status sink_consume(
    bt_message_iterator *iterator, void *user_data) {
    struct st_ctf_reader *reader = user_data;
    bt_message_array_const messages;
    uint64_t count = 0;
    switch (bt_message_iterator_next(iterator, &messages, &count)) {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
        if (count > sizeof reader->messages / sizeof reader->messages[0]) {
            /* The library never gives more than its batch size (15 in 2.0); keep it safe anyway. */
            for (uint64_t i = 0; i < count; i++) bt_message_put_ref(messages[i]);
            return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
        }
        memcpy(reader->messages, messages, count * sizeof messages[0]);
        reader->message_count = count;
        reader->message_position = 0;
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
    default:
        return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
    }
}

/* MARK: - Building the graph */

static const bt_component_class_source *find_source(const char *plugin_name, const char *name,
                                                    const bt_plugin **plugin) {
    if (bt_plugin_find(plugin_name, BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, plugin) !=
        BT_PLUGIN_FIND_STATUS_OK)
        return NULL;
    return bt_plugin_borrow_source_component_class_by_name_const(*plugin, name);
}

static struct st_ctf_reader *reader_new(void) {
    struct st_ctf_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->graph = bt_graph_create(0);
    if (!reader->graph) {
        free(reader);
        return NULL;
    }
    pthread_mutex_init(&reader->lock, NULL);
    pthread_cond_init(&reader->filled, NULL);
    pthread_cond_init(&reader->emptied, NULL);
    return reader;
}

static void copy_error(char *error, size_t error_size, const char *message) {
    if (error && error_size > 0) snprintf(error, error_size, "%s", message ? message : "");
}

/* Adds the simple sink and connects `output` (a muxer's or a source's port) to it. */
static int connect_sink(struct st_ctf_reader *reader, const bt_port_output *output) {
    const bt_component_sink *sink = NULL;
    if (bt_graph_add_simple_sink_component(reader->graph, "session-trace-reader", sink_initialize,
                                           sink_consume, NULL, reader, &sink) !=
        BT_GRAPH_ADD_COMPONENT_STATUS_OK)
        return -1;
    const bt_port_input *input = bt_component_sink_borrow_input_port_by_index_const(sink, 0);
    return bt_graph_connect_ports(reader->graph, output, input, NULL) ==
                   BT_GRAPH_CONNECT_PORTS_STATUS_OK
               ? 0
               : -1;
}

st_ctf_reader *st_ctf_open_directories(const char *const *directories, size_t count, char *error,
                                       size_t error_size) {
    struct st_ctf_reader *reader = reader_new();
    if (!reader) {
        copy_error(error, error_size, "out of memory");
        return NULL;
    }
    const bt_plugin *ctf = NULL, *utils = NULL;
    const bt_component_class_source *fs = find_source("ctf", "fs", &ctf);
    const bt_component_class_filter *muxer_class = NULL;
    if (bt_plugin_find("utils", BT_TRUE, BT_FALSE, BT_TRUE, BT_TRUE, BT_FALSE, &utils) ==
        BT_PLUGIN_FIND_STATUS_OK)
        muxer_class = bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer");
    const bt_component_filter *muxer = NULL;
    if (!fs || !muxer_class) {
        set_error(&reader->error, "babeltrace2's ctf and utils plugins are not installed");
        goto fail;
    }
    if (bt_graph_add_filter_component(reader->graph, muxer_class, "muxer", NULL,
                                      BT_LOGGING_LEVEL_NONE, &muxer) !=
        BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
        take_library_error(&reader->error, "cannot create a muxer");
        goto fail;
    }
    for (size_t i = 0; i < count; i++) {
        bt_value *parameters = bt_value_map_create();
        bt_value *inputs = NULL;
        const bt_component_source *source = NULL;
        char name[32];
        snprintf(name, sizeof name, "source-%zu", i);
        int added = parameters &&
                    bt_value_map_insert_empty_array_entry(parameters, "inputs", &inputs) ==
                        BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK &&
                    bt_value_array_append_string_element(inputs, directories[i]) ==
                        BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK &&
                    bt_graph_add_source_component(reader->graph, fs, name, parameters,
                                                  BT_LOGGING_LEVEL_NONE, &source) ==
                        BT_GRAPH_ADD_COMPONENT_STATUS_OK;
        bt_value_put_ref(parameters);
        if (!added) {
            take_library_error(&reader->error, directories[i]);
            goto fail;
        }
        uint64_t ports = bt_component_source_get_output_port_count(source);
        for (uint64_t p = 0; p < ports; p++) {
            /* The muxer always keeps one free input port, its last. */
            uint64_t free_port = bt_component_filter_get_input_port_count(muxer) - 1;
            if (bt_graph_connect_ports(
                    reader->graph, bt_component_source_borrow_output_port_by_index_const(source, p),
                    bt_component_filter_borrow_input_port_by_index_const(muxer, free_port),
                    NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK) {
                take_library_error(&reader->error, "cannot connect a stream to the muxer");
                goto fail;
            }
        }
    }
    if (connect_sink(reader, bt_component_filter_borrow_output_port_by_index_const(muxer, 0)) != 0) {
        take_library_error(&reader->error, "cannot connect the reader");
        goto fail;
    }
    bt_plugin_put_ref(ctf);
    bt_plugin_put_ref(utils);
    reader->threaded = 1;
    return reader;
fail:
    copy_error(error, error_size, reader->error);
    bt_plugin_put_ref(ctf);
    bt_plugin_put_ref(utils);
    st_ctf_close(reader);
    return NULL;
}

st_ctf_reader *st_ctf_open_live(const char *url, char *error, size_t error_size) {
    struct st_ctf_reader *reader = reader_new();
    if (!reader) {
        copy_error(error, error_size, "out of memory");
        return NULL;
    }
    const bt_plugin *ctf = NULL;
    const bt_component_class_source *live = find_source("ctf", "lttng-live", &ctf);
    const bt_component_source *source = NULL;
    bt_value *parameters = bt_value_map_create();
    bt_value *inputs = NULL;
    if (!live) {
        set_error(&reader->error, "babeltrace2's ctf plugin is not installed");
        goto fail;
    }
    /* "end": a session that is not (or no longer) there ends the reading, as destroying one does. */
    if (!parameters ||
        bt_value_map_insert_empty_array_entry(parameters, "inputs", &inputs) !=
            BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_value_array_append_string_element(inputs, url) != BT_VALUE_ARRAY_APPEND_ELEMENT_STATUS_OK ||
        bt_value_map_insert_string_entry(parameters, "session-not-found-action", "end") !=
            BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK ||
        bt_graph_add_source_component(reader->graph, live, "live", parameters, BT_LOGGING_LEVEL_NONE,
                                      &source) != BT_GRAPH_ADD_COMPONENT_STATUS_OK) {
        take_library_error(&reader->error, url);
        goto fail;
    }
    if (connect_sink(reader, bt_component_source_borrow_output_port_by_index_const(source, 0)) != 0) {
        take_library_error(&reader->error, "cannot connect the reader");
        goto fail;
    }
    bt_value_put_ref(parameters);
    bt_plugin_put_ref(ctf);
    return reader;
fail:
    copy_error(error, error_size, reader->error);
    bt_value_put_ref(parameters);
    bt_plugin_put_ref(ctf);
    st_ctf_close(reader);
    return NULL;
}

/* MARK: - Classes and traces, looked up by pointer */

static void free_class(struct class_entry *entry) {
    if (!entry) return;
    if (entry->event_class) bt_event_class_put_ref(entry->event_class);
    free(entry->field_names);
    free(entry->field_types);
    free(entry->decoded);
    free(entry->wanted);
    free(entry);
}

/* The entry of `event_class`, made when first met. Each entry is allocated apart, so the class
 * pointers handed out stay where they are as the list grows. */
static struct class_entry *class_entry(struct st_ctf_reader *reader, const bt_event_class *event_class,
                                       const bt_stream_class *stream_class) {
    if (reader->class_count > 0 && reader->classes[reader->last_class]->event_class == event_class)
        return reader->classes[reader->last_class];
    for (uint64_t i = 0; i < reader->class_count; i++) {
        if (reader->classes[i]->event_class == event_class) {
            reader->last_class = i;
            return reader->classes[i];
        }
    }
    struct class_entry *entry = calloc(1, sizeof *entry);
    if (!entry) return NULL;
    const bt_field_class *payload = bt_event_class_borrow_payload_field_class_const(event_class);
    uint64_t fields = payload ? bt_field_class_structure_get_member_count(payload) : 0;
    entry->field_names = calloc(fields ? fields : 1, sizeof *entry->field_names);
    entry->field_types = calloc(fields ? fields : 1, sizeof *entry->field_types);
    entry->decoded = calloc(fields ? fields : 1, sizeof *entry->decoded);
    entry->wanted = calloc(fields ? fields : 1, sizeof *entry->wanted);
    if (!entry->field_names || !entry->field_types || !entry->decoded || !entry->wanted) {
        free_class(entry);
        return NULL;
    }
    entry->decoded_count = fields;
    for (uint64_t i = 0; i < fields; i++) {
        entry->decoded[i] = i;
        const bt_field_class_structure_member *member =
            bt_field_class_structure_borrow_member_by_index_const(payload, i);
        entry->field_names[i] = bt_field_class_structure_member_get_name(member);
        entry->field_types[i] =
            bt_field_class_get_type(bt_field_class_structure_member_borrow_field_class_const(member));
    }
    entry->vpid_index = -1;
    const bt_field_class *common =
        bt_stream_class_borrow_event_common_context_field_class_const(stream_class);
    uint64_t common_count = common ? bt_field_class_structure_get_member_count(common) : 0;
    for (uint64_t i = 0; i < common_count; i++) {
        const char *name = bt_field_class_structure_member_get_name(
            bt_field_class_structure_borrow_member_by_index_const(common, i));
        if (strcmp(name, "vpid") == 0) entry->vpid_index = (int64_t)i;
    }
    bt_event_class_get_ref(event_class);
    entry->event_class = event_class;
    const char *name = bt_event_class_get_name(event_class);
    entry->public_class.name = name ? name : "";
    entry->public_class.emf_uri = bt_event_class_get_emf_uri(event_class);
    entry->public_class.field_count = fields;
    entry->public_class.field_names = entry->field_names;

    /* st_ctf_select_fields() looks classes up from the caller's thread. */
    pthread_mutex_lock(&reader->lock);
    if (reader->class_count == reader->class_capacity) {
        uint64_t capacity = reader->class_capacity ? reader->class_capacity * 2 : 16;
        struct class_entry **grown = realloc(reader->classes, capacity * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&reader->lock);
            free_class(entry);
            return NULL;
        }
        reader->classes = grown;
        reader->class_capacity = capacity;
    }
    entry->public_class.index = reader->class_count;
    reader->classes[reader->class_count] = entry;
    reader->last_class = reader->class_count;
    reader->class_count++;
    pthread_mutex_unlock(&reader->lock);
    return entry;
}

static struct trace_entry *trace_entry(struct st_ctf_reader *reader, const bt_trace *trace) {
    if (reader->trace_count > 0 && reader->traces[reader->last_trace].trace == trace)
        return &reader->traces[reader->last_trace];
    for (uint64_t i = 0; i < reader->trace_count; i++) {
        if (reader->traces[i].trace == trace) {
            reader->last_trace = i;
            return &reader->traces[i];
        }
    }
    if (reader->trace_count == reader->trace_capacity) {
        uint64_t capacity = reader->trace_capacity ? reader->trace_capacity * 2 : 4;
        struct trace_entry *grown = realloc(reader->traces, capacity * sizeof *grown);
        if (!grown) return NULL;
        reader->traces = grown;
        reader->trace_capacity = capacity;
    }
    struct trace_entry *entry = &reader->traces[reader->trace_count];
    bt_trace_get_ref(trace);
    entry->trace = trace;
    entry->hostname = "";
    const bt_value *hostname = bt_trace_borrow_environment_entry_value_by_name_const(trace, "hostname");
    if (hostname && bt_value_is_string(hostname)) entry->hostname = bt_value_string_get(hostname);
    reader->last_trace = reader->trace_count;
    reader->trace_count++;
    return entry;
}

/* MARK: - Decoding into batches */

static int64_t integer_value(const bt_field *field) {
    return bt_field_class_type_is(bt_field_get_class_type(field), BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)
               ? bt_field_integer_signed_get_value(field)
               : (int64_t)bt_field_integer_unsigned_get_value(field);
}

/* Makes room for `more` elements of `size` bytes after `count` in *storage; -1 when out of memory. */
static int reserve(void **storage, uint64_t *capacity, uint64_t count, uint64_t more, size_t size) {
    if (count + more <= *capacity) return 0;
    uint64_t grown_capacity = (count + more) * 2;
    void *grown = realloc(*storage, grown_capacity * size);
    if (!grown) return -1;
    *storage = grown;
    *capacity = grown_capacity;
    return 0;
}

/* Decodes the payload's chosen members into `values`; string and array values get offsets into
 * the batch's bytes and integers. Returns -1 when out of memory. */
static int decode_payload(struct batch *batch, const struct class_entry *entry, const bt_field *payload,
                          struct st_ctf_value *values) {
    for (uint64_t d = 0; d < entry->decoded_count; d++) {
        uint64_t i = entry->decoded[d];
        const bt_field *field = bt_field_structure_borrow_member_field_by_index_const(payload, i);
        struct st_ctf_value *value = &values[i];
        bt_field_class_type type = entry->field_types[i];
        value->length = 0;
        if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
            value->type = ST_CTF_SIGNED;
            value->integer = bt_field_integer_signed_get_value(field);
        } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
            value->type = ST_CTF_UNSIGNED;
            value->integer = (int64_t)bt_field_integer_unsigned_get_value(field);
        } else if (type == BT_FIELD_CLASS_TYPE_STRING) {
            /* By length: babeltrace2 2.0 reuses string fields between events and does not write
             * the terminator of an empty one, so its buffer can still hold the last event's text. */
            uint64_t length = bt_field_string_get_length(field);
            if (reserve((void **)&batch->bytes, &batch->byte_capacity, batch->byte_count, length + 1, 1) != 0)
                return -1;
            if (length > 0) memcpy(batch->bytes + batch->byte_count, bt_field_string_get_value(field), length);
            batch->bytes[batch->byte_count + length] = '\0';
            value->type = ST_CTF_STRING;
            value->integer = (int64_t)batch->byte_count;
            value->length = length;
            batch->byte_count += length + 1;
        } else if (type == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL) {
            value->type = ST_CTF_REAL;
            value->real = bt_field_real_double_precision_get_value(field);
        } else if (type == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) {
            value->type = ST_CTF_REAL;
            value->real = bt_field_real_single_precision_get_value(field);
        } else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
            uint64_t length = bt_field_array_get_length(field);
            if (reserve((void **)&batch->integers, &batch->integer_capacity, batch->integer_count, length,
                        sizeof *batch->integers) != 0)
                return -1;
            for (uint64_t e = 0; e < length; e++) {
                const bt_field *element = bt_field_array_borrow_element_field_by_index_const(field, e);
                int integer = bt_field_class_type_is(bt_field_get_class_type(element),
                                                     BT_FIELD_CLASS_TYPE_INTEGER);
                batch->integers[batch->integer_count + e] = integer ? integer_value(element) : 0;
            }
            value->type = ST_CTF_ARRAY;
            value->integer = (int64_t)batch->integer_count;
            value->length = length;
            batch->integer_count += length;
        } else {
            value->type = ST_CTF_OTHER;
        }
    }
    return 0;
}

static int add_event(struct st_ctf_reader *reader, struct batch *batch, const bt_message *message) {
    const bt_event *event = bt_message_event_borrow_event_const(message);
    const bt_event_class *event_class = bt_event_borrow_class_const(event);
    const bt_stream *stream = bt_event_borrow_stream_const(event);
    struct class_entry *entry = class_entry(reader, event_class, bt_stream_borrow_class_const(stream));
    struct trace_entry *trace = trace_entry(reader, bt_stream_borrow_trace_const(stream));
    if (!entry || !trace) return -1;
    uint64_t fields = entry->public_class.field_count;
    if (reserve((void **)&batch->values, &batch->value_capacity, batch->value_count, fields,
                sizeof *batch->values) != 0)
        return -1;
    struct st_ctf_value *values = batch->values + batch->value_count;
    /* Members not decoded read as ST_CTF_OTHER. */
    for (uint64_t i = 0; i < fields; i++) values[i].type = ST_CTF_OTHER;
    const bt_field *payload = bt_event_borrow_payload_field_const(event);
    if (payload && decode_payload(batch, entry, payload, values) != 0) return -1;

    struct st_ctf_event *out = &batch->events[batch->count];
    batch->statuses[batch->count] = ST_CTF_EVENT;
    batch->value_offsets[batch->count] = batch->value_count;
    batch->classes[batch->count] = entry;
    batch->value_count += fields;
    out->event_class = &entry->public_class;
    out->fields = NULL;
    out->vpid = -1;
    if (entry->vpid_index >= 0) {
        const bt_field *common = bt_event_borrow_common_context_field_const(event);
        if (common) {
            out->vpid = integer_value(bt_field_structure_borrow_member_field_by_index_const(
                common, (uint64_t)entry->vpid_index));
        }
    }
    out->trace_index = (uint64_t)(trace - reader->traces);
    out->hostname = trace->hostname;
    out->clock_value = -1;
    if (bt_message_event_borrow_stream_class_default_clock_class_const(message)) {
        out->clock_value =
            (int64_t)bt_clock_snapshot_get_value(bt_message_event_borrow_default_clock_snapshot_const(message));
    }
    out->discarded = 0;
    batch->count++;
    return 0;
}

static int add_discarded(struct st_ctf_reader *reader, struct batch *batch, const bt_message *message) {
    const bt_stream *stream = bt_message_discarded_events_borrow_stream_const(message);
    struct trace_entry *trace = trace_entry(reader, bt_stream_borrow_trace_const(stream));
    if (!trace) return -1;
    struct st_ctf_event *out = &batch->events[batch->count];
    memset(out, 0, sizeof *out);
    batch->statuses[batch->count] = ST_CTF_DISCARDED;
    out->vpid = -1;
    out->trace_index = (uint64_t)(trace - reader->traces);
    out->hostname = trace->hostname;
    out->clock_value = -1;
    if (bt_stream_class_discarded_events_have_default_clock_snapshots(bt_stream_borrow_class_const(stream))) {
        out->clock_value = (int64_t)bt_clock_snapshot_get_value(
            bt_message_discarded_events_borrow_end_default_clock_snapshot_const(message));
    }
    uint64_t count = 0;
    if (bt_message_discarded_events_get_count(message, &count) == BT_PROPERTY_AVAILABILITY_AVAILABLE)
        out->discarded = count;
    batch->count++;
    return 0;
}

/* Turns the offsets of a filled batch into pointers, now that its storage no longer moves. A
 * class's decoded members do not change while a batch is filled (see apply_selections()). */
static void finish_batch(struct batch *batch) {
    for (uint64_t n = 0; n < batch->count; n++) {
        if (batch->statuses[n] != ST_CTF_EVENT) continue;
        struct st_ctf_value *values = batch->values + batch->value_offsets[n];
        batch->events[n].fields = values;
        const struct class_entry *entry = batch->classes[n];
        for (uint64_t d = 0; d < entry->decoded_count; d++) {
            struct st_ctf_value *value = &values[entry->decoded[d]];
            if (value->type == ST_CTF_STRING) {
                value->string = batch->bytes + value->integer;
            } else if (value->type == ST_CTF_ARRAY) {
                value->array = batch->integers + value->integer;
            }
        }
    }
}

/* Applies the selections st_ctf_select_fields() asked for; with the lock held. */
static void apply_selections(struct st_ctf_reader *reader) {
    for (uint64_t c = 0; c < reader->class_count; c++) {
        struct class_entry *entry = reader->classes[c];
        if (!entry->selection_pending) continue;
        entry->decoded_count = 0;
        for (uint64_t i = 0; i < entry->public_class.field_count; i++) {
            if (entry->wanted[i]) entry->decoded[entry->decoded_count++] = i;
        }
        entry->selection_pending = 0;
    }
}

/* Fills `batch` with the next events, running the graph as needed; on the filling thread. */
static void fill_batch(struct st_ctf_reader *reader, struct batch *batch) {
    batch->count = batch->position = 0;
    batch->value_count = batch->byte_count = batch->integer_count = 0;
    batch->final_status = 0;
    while (batch->count < BATCH_EVENTS && !batch->final_status) {
        if (reader->message_position < reader->message_count) {
            const bt_message *message = reader->messages[reader->message_position++];
            bt_message_type type = bt_message_get_type(message);
            int added = type == BT_MESSAGE_TYPE_EVENT              ? add_event(reader, batch, message)
                        : type == BT_MESSAGE_TYPE_DISCARDED_EVENTS ? add_discarded(reader, batch, message)
                                                                   : 0;
            bt_message_put_ref(message);
            if (added != 0) {
                set_error(&reader->error, "out of memory");
                reader->graph_status = batch->final_status = ST_CTF_ERROR;
            }
            continue;
        }
        if (reader->graph_status) {
            batch->final_status = reader->graph_status;
            break;
        }
        switch (bt_graph_run_once(reader->graph)) {
        case BT_GRAPH_RUN_ONCE_STATUS_OK:
            break;
        case BT_GRAPH_RUN_ONCE_STATUS_AGAIN:
            /* Only a live source has nothing yet; a trace on disk is simply asked again. */
            if (!reader->threaded) batch->final_status = ST_CTF_AGAIN;
            break;
        case BT_GRAPH_RUN_ONCE_STATUS_END:
            reader->graph_status = ST_CTF_END;
            break;
        default:
            take_library_error(&reader->error, "babeltrace2 cannot read the trace");
            reader->graph_status = ST_CTF_ERROR;
            break;
        }
    }
    finish_batch(batch);
}

/* MARK: - Handing batches over */

static void *fill_batches(void *argument) {
    struct st_ctf_reader *reader = argument;
    for (;;) {
        pthread_mutex_lock(&reader->lock);
        while (!reader->stopping && reader->fill_count - reader->read_count == BATCH_COUNT)
            pthread_cond_wait(&reader->emptied, &reader->lock);
        if (reader->stopping) {
            pthread_mutex_unlock(&reader->lock);
            return NULL;
        }
        apply_selections(reader);
        struct batch *batch = &reader->batches[reader->fill_count % BATCH_COUNT];
        pthread_mutex_unlock(&reader->lock);

        fill_batch(reader, batch);

        pthread_mutex_lock(&reader->lock);
        reader->fill_count++;
        pthread_cond_signal(&reader->filled);
        pthread_mutex_unlock(&reader->lock);
        if (batch->final_status == ST_CTF_END || batch->final_status == ST_CTF_ERROR) return NULL;
    }
}

/* Makes the next batch the one read; -1 when the filling thread cannot start. */
static int take_batch(struct st_ctf_reader *reader) {
    if (!reader->threaded) {
        pthread_mutex_lock(&reader->lock);
        apply_selections(reader);
        pthread_mutex_unlock(&reader->lock);
        reader->reading = &reader->batches[0];
        fill_batch(reader, reader->reading);
        return 0;
    }
    if (!reader->started) {
        if (pthread_create(&reader->thread, NULL, fill_batches, reader) != 0) return -1;
        reader->started = 1;
    }
    pthread_mutex_lock(&reader->lock);
    while (reader->read_count == reader->fill_count) pthread_cond_wait(&reader->filled, &reader->lock);
    reader->reading = &reader->batches[reader->read_count % BATCH_COUNT];
    pthread_mutex_unlock(&reader->lock);
    return 0;
}

/* Gives the batch read back to be filled again. */
static void release_batch(struct st_ctf_reader *reader) {
    reader->reading = NULL;
    if (!reader->threaded) return;
    pthread_mutex_lock(&reader->lock);
    reader->read_count++;
    pthread_cond_signal(&reader->emptied);
    pthread_mutex_unlock(&reader->lock);
}

int st_ctf_next(st_ctf_reader *reader, struct st_ctf_event *event) {
    for (;;) {
        struct batch *batch = reader->reading;
        if (batch) {
            if (batch->position < batch->count) {
                uint64_t n = batch->position++;
                *event = batch->events[n];
                return batch->statuses[n];
            }
            int status = batch->final_status;
            if (status == ST_CTF_END || status == ST_CTF_ERROR) return status;
            release_batch(reader);
            if (status == ST_CTF_AGAIN) return ST_CTF_AGAIN;
        }
        if (take_batch(reader) != 0) {
            set_error(&reader->error, "cannot start the thread that decodes the trace");
            return ST_CTF_ERROR;
        }
    }
}

int st_ctf_select_fields(st_ctf_reader *reader, uint64_t class_index, const uint8_t *wanted,
                         uint64_t count) {
    pthread_mutex_lock(&reader->lock);
    int status = -1;
    if (class_index < reader->class_count) {
        struct class_entry *entry = reader->classes[class_index];
        if (count == entry->public_class.field_count) {
            memcpy(entry->wanted, wanted, count);
            entry->selection_pending = 1;
            status = 0;
        }
    }
    pthread_mutex_unlock(&reader->lock);
    return status;
}

const char *st_ctf_error(const st_ctf_reader *reader) {
    return reader->error ? reader->error : "";
}

void st_ctf_close(st_ctf_reader *reader) {
    if (!reader) return;
    if (reader->started) {
        pthread_mutex_lock(&reader->lock);
        reader->stopping = 1;
        pthread_cond_signal(&reader->emptied);
        pthread_mutex_unlock(&reader->lock);
        pthread_join(reader->thread, NULL);
    }
    while (reader->message_position < reader->message_count)
        bt_message_put_ref(reader->messages[reader->message_position++]);
    for (uint64_t i = 0; i < reader->class_count; i++) free_class(reader->classes[i]);
    for (uint64_t i = 0; i < reader->trace_count; i++) bt_trace_put_ref(reader->traces[i].trace);
    for (int b = 0; b < BATCH_COUNT; b++) {
        free(reader->batches[b].values);
        free(reader->batches[b].bytes);
        free(reader->batches[b].integers);
    }
    bt_graph_put_ref(reader->graph);
    pthread_cond_destroy(&reader->filled);
    pthread_cond_destroy(&reader->emptied);
    pthread_mutex_destroy(&reader->lock);
    free(reader->classes);
    free(reader->traces);
    free(reader->error);
    free(reader);
}
