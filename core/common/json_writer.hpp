// json_writer.hpp - a small streaming JSON writer (indented, strings escaped) for --json output and
// the files the controller writes for programs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

// Escapes s for use inside a JSON string literal (quotes not included). Bytes that are not
// valid UTF-8 are written as U+FFFD so the output always parses.
std::string json_escape(std::string_view s);

class JsonWriter {
  public:
    JsonWriter &begin_object() { return open('{'); }
    JsonWriter &end_object() { return close('}'); }
    JsonWriter &begin_array() { return open('['); }
    JsonWriter &end_array() { return close(']'); }
    JsonWriter &key(std::string_view k);

    JsonWriter &str(std::string_view v);
    JsonWriter &num(int64_t v);
    JsonWriter &unum(uint64_t v);
    JsonWriter &real(double v); // null when not finite
    JsonWriter &boolean(bool v);
    JsonWriter &null();

    // key + value shorthands
    JsonWriter &kv(std::string_view k, std::string_view v) { return key(k).str(v); }
    JsonWriter &kv(std::string_view k, const char *v) { return key(k).str(v); }
    JsonWriter &kv(std::string_view k, const std::string &v) { return key(k).str(v); }
    JsonWriter &kv_num(std::string_view k, int64_t v) { return key(k).num(v); }
    JsonWriter &kv_unum(std::string_view k, uint64_t v) { return key(k).unum(v); }
    JsonWriter &kv_bool(std::string_view k, bool v) { return key(k).boolean(v); }
    // Slurm's {"set":..,"infinite":..,"number":..} object for a value that may be unset or
    // unlimited.
    JsonWriter &kv_number_obj(std::string_view k, uint64_t v, bool set, bool infinite);
    // The same for a real number, always set ({"set": true, "infinite": false, "number": v}).
    JsonWriter &kv_real_obj(std::string_view k, double v);
    // A one-element list of strings (Slurm prints states as ["RUNNING"]).
    JsonWriter &kv_str_list(std::string_view k, const std::vector<std::string> &v);

    // The document so far, with a final newline.
    std::string finish();

  private:
    JsonWriter &open(char bracket);  // '{' or '['
    JsonWriter &close(char bracket); // '}' or ']'
    void before_value();
    void newline();
    std::string out_;
    std::vector<bool> has_items_; // per open container
    bool after_key_ = false;
};

} // namespace drover
