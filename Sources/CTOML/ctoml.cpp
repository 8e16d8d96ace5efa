// The C ABI over toml++ declared in ctoml.h.
#include "ctoml.h"
#include <toml++/toml.h>

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <new>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

struct ctoml_document {
    ctoml_document() = default;
    ctoml_document(const ctoml_document &) = delete;
    ctoml_document &operator=(const ctoml_document &) = delete;
    ~ctoml_document();

    bool succeeded = false;
    std::string error_message;
    ctoml_position error_position = {0, 0};
    // The parsed table stays alive: nodes point into its keys and strings.
    toml::table root;
    // Text made here (dates and times), at stable addresses.
    std::deque<std::string> owned_text;
    std::vector<ctoml_node> nodes;
};

namespace {

ctoml_position position_of(const toml::source_position &position) {
    return ctoml_position{static_cast<uint32_t>(position.line), static_cast<uint32_t>(position.column)};
}

bool comes_before(const ctoml_position &a, const ctoml_position &b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
}

ctoml_node empty_node() {
    ctoml_node node{};
    node.kind = CTOML_TABLE;
    return node;
}

// A date, time or date-time: `kind`, with `value` as text the way toml++ writes it.
template <typename Temporal>
void set_temporal(ctoml_document &document, ctoml_node &target, ctoml_kind kind, const Temporal &value) {
    target.kind = kind;
    std::ostringstream stream;
    stream << value;
    document.owned_text.push_back(stream.str());
    const std::string &text = document.owned_text.back();
    target.text = text.data();
    target.text_length = text.size();
}

// How deep values may nest, counting each table and array on the way from the root. toml++ bounds
// nested inline values to the same number but not dotted keys or table headers: `z.z.z...k = 1`
// makes one table per segment, and 16 000 of them overflowed the stack in flatten. Deeper
// documents are refused, so flatten and the Swift walk over its nodes recurse a bounded number
// of times.
constexpr size_t max_depth = TOML_MAX_NESTED_VALUES;

// Thrown by flatten at the first value deeper than max_depth.
struct nested_too_deep {
    ctoml_position position;
};

// Fills document.nodes[index] from `node`, then its children (appended as one block).
// `depth` is the number of tables and arrays around `node`.
void flatten(ctoml_document &document, size_t index, const toml::node &node, size_t depth) {
    if (depth > max_depth) {
        const ctoml_position key = document.nodes[index].key_position;
        throw nested_too_deep{key.line != 0 ? key : position_of(node.source().begin)};
    }
    {
        ctoml_node &target = document.nodes[index];
        target.position = position_of(node.source().begin);
        target.end_position = position_of(node.source().end);
        switch (node.type()) {
        case toml::node_type::table:
            target.kind = CTOML_TABLE;
            break;
        case toml::node_type::array:
            target.kind = CTOML_ARRAY;
            break;
        case toml::node_type::string: {
            target.kind = CTOML_STRING;
            const std::string &text = node.as_string()->get();
            target.text = text.data();
            target.text_length = text.size();
            break;
        }
        case toml::node_type::integer:
            target.kind = CTOML_INTEGER;
            target.integer = node.as_integer()->get();
            break;
        case toml::node_type::floating_point:
            target.kind = CTOML_FLOAT;
            target.floating = node.as_floating_point()->get();
            break;
        case toml::node_type::boolean:
            target.kind = CTOML_BOOLEAN;
            target.boolean = node.as_boolean()->get() ? 1 : 0;
            break;
        case toml::node_type::date:
            set_temporal(document, target, CTOML_DATE, node.as_date()->get());
            break;
        case toml::node_type::time:
            set_temporal(document, target, CTOML_TIME, node.as_time()->get());
            break;
        case toml::node_type::date_time:
            set_temporal(document, target, CTOML_DATE_TIME, node.as_date_time()->get());
            break;
        case toml::node_type::none:
            break;
        }
    }

    if (const toml::table *table = node.as_table()) {
        // toml++ keeps a table's keys sorted; put them back in source order.
        std::vector<std::pair<const toml::key *, const toml::node *>> entries;
        entries.reserve(table->size());
        for (auto &&[key, value] : *table) {
            entries.emplace_back(&key, &value);
        }
        std::stable_sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) {
            return comes_before(position_of(a.first->source().begin), position_of(b.first->source().begin));
        });
        const size_t first = document.nodes.size();
        document.nodes.resize(first + entries.size(), empty_node());
        document.nodes[index].first_child = first;
        document.nodes[index].child_count = entries.size();
        for (size_t offset = 0; offset < entries.size(); ++offset) {
            ctoml_node &child = document.nodes[first + offset];
            const std::string_view key = entries[offset].first->str();
            child.key = key.data();
            child.key_length = key.size();
            child.key_position = position_of(entries[offset].first->source().begin);
        }
        for (size_t offset = 0; offset < entries.size(); ++offset) {
            flatten(document, first + offset, *entries[offset].second, depth + 1);
        }
    } else if (const toml::array *array = node.as_array()) {
        const size_t first = document.nodes.size();
        document.nodes.resize(first + array->size(), empty_node());
        document.nodes[index].first_child = first;
        document.nodes[index].child_count = array->size();
        for (size_t offset = 0; offset < array->size(); ++offset) {
            flatten(document, first + offset, (*array)[offset], depth + 1);
        }
    }
}

// Empties `root` without recursing: toml++'s destructors recurse once per level, which a
// document deep enough to be refused would overflow. Each table or array inside is moved out
// to a work list before its parent goes, so every destructor meets only emptied children.
void dismantle(toml::table &root) {
    std::vector<toml::table> tables;
    std::vector<toml::array> arrays;
    tables.push_back(std::move(root));
    const auto take = [&](toml::node &node) {
        if (toml::table *table = node.as_table()) {
            tables.push_back(std::move(*table));
        } else if (toml::array *array = node.as_array()) {
            arrays.push_back(std::move(*array));
        }
    };
    while (!tables.empty() || !arrays.empty()) {
        if (!tables.empty()) {
            toml::table table = std::move(tables.back());
            tables.pop_back();
            for (auto &&[key, value] : table) {
                take(value);
            }
        } else {
            toml::array array = std::move(arrays.back());
            arrays.pop_back();
            for (toml::node &value : array) {
                take(value);
            }
        }
    }
}

// Parses `text` into `document`, flattening the tree; any failure becomes the document's error.
void parse_into(ctoml_document *document, std::string_view text) noexcept {
    try {
        document->root = toml::parse(text);
        document->nodes.push_back(empty_node());
        flatten(*document, 0, document->root, 0);
        document->succeeded = true;
    } catch (const nested_too_deep &error) {
        document->nodes.clear();
        document->succeeded = false;
        try {
            document->error_message = "tables, arrays and dotted keys nest deeper than "
                + std::to_string(max_depth) + " levels";
        } catch (...) {
            document->error_message.clear();
        }
        document->error_position = error.position;
    } catch (const toml::parse_error &error) {
        document->nodes.clear();
        document->succeeded = false;
        try {
            document->error_message = std::string(error.description());
        } catch (...) {
            document->error_message.clear();
        }
        document->error_position = position_of(error.source().begin);
    } catch (...) {
        // Out of memory or anything else toml++ may throw: no tree, a generic message.
        document->nodes.clear();
        document->succeeded = false;
        document->error_message.clear();
    }
}

// A parse to run on a thread of its own.
struct parse_job {
    ctoml_document *document;
    std::string_view text;
};

void *run_parse_job(void *argument) {
    parse_job *job = static_cast<parse_job *>(argument);
    parse_into(job->document, job->text);
    return nullptr;
}

// How many parses called on this thread ran on a thread of their own.
thread_local unsigned long threads_started = 0;

// Whether the calling thread's stack has `needed` bytes left below this frame (false when that
// cannot be told). The frame's address, not a local's: a local may live on a sanitizer's fake stack.
bool has_stack_left(size_t needed) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) {
        return false;
    }
    void *lowest = nullptr;
    size_t size = 0;
    const bool known = pthread_attr_getstack(&attributes, &lowest, &size) == 0;
    pthread_attr_destroy(&attributes);
    const uintptr_t bottom = reinterpret_cast<uintptr_t>(lowest);
    const uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
    return known && lowest != nullptr && here > bottom && here - bottom < size && here - bottom >= needed;
}

// toml++ recurses once per nested table while it parses (and while it frees a tree a syntax error
// cut short), about 300 bytes of stack a level: 30 000 dotted-key levels, 60 KB of text,
// overflowed the main thread's 8 MiB. Each level needs a '.', '[' or '{', so their count bounds
// the depth; the parse needs 1 KiB of stack per possible level (1 MiB at least). It runs on the
// caller's thread when that much (and 64 KiB for the caller) is left there, else on a thread
// with that stack. A process that has made a thread stays multi-threaded for glibc, whose
// read(2) and write(2) then cost the daemon ~90 more instructions a packet: a config of the
// usual size makes none. False when the thread that was needed could not be made.
bool run_with_stack(parse_job &job) {
    const size_t levels = static_cast<size_t>(std::count_if(job.text.begin(), job.text.end(), [](char character) {
        return character == '.' || character == '[' || character == '{';
    }));
    const size_t stack_size = std::max<size_t>(size_t(1) << 20, (size_t(256) << 10) + levels * 1024);
    if (has_stack_left(stack_size + (size_t(64) << 10))) {
        parse_into(job.document, job.text);
        return true;
    }
    threads_started += 1;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) {
        return false;
    }
    pthread_t thread;
    const bool started = pthread_attr_setstacksize(&attributes, stack_size) == 0
        && pthread_create(&thread, &attributes, run_parse_job, &job) == 0;
    pthread_attr_destroy(&attributes);
    return started && pthread_join(thread, nullptr) == 0;
}

} // namespace

ctoml_document::~ctoml_document() {
    try {
        dismantle(root);
    } catch (...) {
        // Out of memory for the work list: the destructors recurse as before.
    }
}

extern "C" int ctoml_version(void) {
    return TOML_LIB_MAJOR * 10000 + TOML_LIB_MINOR * 100 + TOML_LIB_PATCH;
}

extern "C" unsigned long ctoml_parse_threads_started(void) {
    return threads_started;
}

extern "C" ctoml_document *ctoml_parse(const char *text, size_t length) {
    ctoml_document *document = new (std::nothrow) ctoml_document();
    if (document == nullptr) {
        return nullptr;
    }
    parse_job job{document, text == nullptr ? std::string_view() : std::string_view(text, length)};
    if (!run_with_stack(job)) {
        document->succeeded = false;
        try {
            document->error_message = "cannot start a thread with a stack deep enough for the TOML parser";
        } catch (...) {
            document->error_message.clear();
        }
    }
    return document;
}

extern "C" void ctoml_free(ctoml_document *document) {
    delete document;
}

extern "C" int ctoml_succeeded(const ctoml_document *document) {
    return document != nullptr && document->succeeded ? 1 : 0;
}

extern "C" const char *ctoml_error_message(const ctoml_document *document) {
    if (document == nullptr || document->succeeded) {
        return "";
    }
    return document->error_message.empty() ? "the TOML parser failed (out of memory?)" : document->error_message.c_str();
}

extern "C" ctoml_position ctoml_error_position(const ctoml_document *document) {
    if (document == nullptr || document->succeeded) {
        return ctoml_position{0, 0};
    }
    return document->error_position;
}

extern "C" size_t ctoml_node_count(const ctoml_document *document) {
    return document == nullptr ? 0 : document->nodes.size();
}

extern "C" const ctoml_node *ctoml_nodes(const ctoml_document *document) {
    return document == nullptr || document->nodes.empty() ? nullptr : document->nodes.data();
}
