// json_document.cpp - the envelope around the records of a --json document.
#include "cli/json_document.hpp"

#include "common/version.hpp"

namespace drover::cli {

void json_meta(JsonWriter &w, const JsonPlugin &plugin) {
    w.key("meta").begin_object();
    w.key("plugin")
        .begin_object()
        .kv("type", plugin.type)
        .kv("name", plugin.name)
        .kv("data_parser", plugin.data_parser)
        .end_object();
    w.key("client").begin_object().kv("source", "").end_object();
    w.key("command").begin_array().end_array();
    w.key("slurm").begin_object();
    w.key("version")
        .begin_object()
        .kv_num("major", kSlurmMajor)
        .kv_num("micro", kSlurmMicro)
        .kv_num("minor", kSlurmMinor)
        .end_object();
    w.kv("release", kSlurmRelease).kv("cluster", "");
    w.end_object();
    w.end_object();
}

std::string json_document(std::string_view list_key, JsonStamps stamps, int64_t now,
                          const std::function<void(JsonWriter &)> &write_records) {
    JsonWriter w;
    w.begin_object();
    w.key(list_key).begin_array();
    write_records(w);
    w.end_array();
    if (stamps == JsonStamps::last_backfill_and_update)
        w.kv_number_obj("last_backfill", 0, false, false);
    if (stamps != JsonStamps::none) w.kv_number_obj("last_update", uint64_t(now), true, false);
    json_meta(w);
    w.key("errors").begin_array().end_array();
    w.key("warnings").begin_array().end_array();
    w.end_object();
    return w.finish();
}

} // namespace drover::cli
