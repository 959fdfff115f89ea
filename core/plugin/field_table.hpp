// field_table.hpp - what the field-by-field copies between the core's records and the plugin
// ABI's structs share: a table of field descriptions walked one by one, and the conversion of one
// value to the other side's type. The job codec (ctld/jobs/job_codec.hpp) and the accounting codec
// (ctld/acct/acct_codec.hpp) describe their fields with these.
#pragma once

#include <string>
#include <type_traits>

#include "plugin/cstr.hpp"

namespace drover::plugin {

// A list of field descriptions (types); each(fn) calls fn with one of each, in order.
template <class... F>
struct FieldTable {
    template <class Fn>
    static void each(Fn &&fn) {
        (fn(F{}), ...);
    }
};

// A value as the other side types it: the same type, another number, a string a plugin view
// borrows, or a string copied out of a plugin's view (NULL reads as empty).
template <class To, class From>
void convert(const From &from, To &to) {
    if constexpr (std::is_same_v<To, drover_str>)
        to = cstr(from);
    else if constexpr (std::is_same_v<From, drover_str>)
        to = from.ptr ? To(from.ptr, from.len) : To();
    else
        to = static_cast<To>(from);
}

} // namespace drover::plugin
