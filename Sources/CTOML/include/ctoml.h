#ifndef DAYDREAM_CTOML_H
#define DAYDREAM_CTOML_H
/*
 * A small C ABI over toml++, so Swift never sees C++.
 *
 * ctoml_parse() parses a whole document and flattens it into an array of
 * nodes owned by the returned handle; ctoml_free() releases everything.
 * Node 0 is the root table. The children of a table or an array are stored
 * next to each other: node indices first_child ..< first_child + child_count,
 * tables' children in source order. No C++ exception ever leaves this shim.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The toml++ version this shim was built against, as major*10000+minor*100+patch. */
int ctoml_version(void);

/* What a node holds. */
typedef enum ctoml_kind {
    CTOML_TABLE = 0,
    CTOML_ARRAY = 1,
    CTOML_STRING = 2,
    CTOML_INTEGER = 3,
    CTOML_FLOAT = 4,
    CTOML_BOOLEAN = 5,
    CTOML_DATE = 6,
    CTOML_TIME = 7,
    CTOML_DATE_TIME = 8,
} ctoml_kind;

/* A line and column in the source text, both counted from 1 (0: unknown). */
typedef struct ctoml_position {
    uint32_t line;
    uint32_t column;
} ctoml_position;

/* One value of the document. Strings are UTF-8, not NUL-terminated (use the length). */
typedef struct ctoml_node {
    ctoml_kind kind;
    /* Where the value starts (for a table: its header or its first key). */
    ctoml_position position;
    /* Just past the value's last character, as toml++ records it (inline values). */
    ctoml_position end_position;
    /* The key naming this node in its parent table, and where that key is
       written; key is NULL for the root and for array elements. */
    const char *key;
    size_t key_length;
    ctoml_position key_position;
    /* Tables and arrays: the index of the first child and how many there are. */
    size_t first_child;
    size_t child_count;
    /* CTOML_STRING: the string; dates and times: their TOML text. */
    const char *text;
    size_t text_length;
    /* CTOML_INTEGER */
    int64_t integer;
    /* CTOML_FLOAT */
    double floating;
    /* CTOML_BOOLEAN: 0 or 1 */
    int boolean;
} ctoml_node;

/* A parsed document or a parse error; opaque. */
typedef struct ctoml_document ctoml_document;

/* Parses `length` bytes of `text`. Returns NULL only when out of memory;
   otherwise a handle to free with ctoml_free(), holding nodes or an error. */
ctoml_document *ctoml_parse(const char *text, size_t length);

/* How many parses called on the calling thread needed a thread of their own:
   a text that could nest deeper than the caller's stack has room for (see
   ctoml.cpp). */
unsigned long ctoml_parse_threads_started(void);

/* Releases the handle and every node and string it owns. NULL is allowed. */
void ctoml_free(ctoml_document *document);

/* 1 when the text parsed, 0 when it holds a syntax error. */
int ctoml_succeeded(const ctoml_document *document);

/* The syntax error's description (NUL-terminated UTF-8) and where it is;
   "" and {0, 0} when the text parsed. */
const char *ctoml_error_message(const ctoml_document *document);
ctoml_position ctoml_error_position(const ctoml_document *document);

/* The flattened tree: `ctoml_node_count` nodes, node 0 the root table.
   Empty when the text did not parse. Valid until ctoml_free(). */
size_t ctoml_node_count(const ctoml_document *document);
const ctoml_node *ctoml_nodes(const ctoml_document *document);

#ifdef __cplusplus
}
#endif
#endif
