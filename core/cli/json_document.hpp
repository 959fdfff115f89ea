// json_document.hpp - the envelope every --json document shares: the record list under its key,
// the update stamps, Slurm's "meta" object and the empty "errors" and "warnings" lists.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/json_writer.hpp"

namespace drover::cli {

// Which stamps follow the record list.
enum class JsonStamps {
    none,                     // sinfo, sacct
    last_update,              // "last_update": nodes, partitions
    last_backfill_and_update, // "last_backfill", then "last_update": jobs
};

// Slurm's "meta" object: its release and, for drover-restd, the plugin and data parser that
// answered (empty for the commands).
struct JsonPlugin {
    std::string type, name, data_parser;
};
void json_meta(JsonWriter &w, const JsonPlugin &plugin = {});

// {"<list_key>": [<what write_records writes>], <stamps>, "meta": {...}, "errors": [],
//  "warnings": []}, with a final newline.
std::string json_document(std::string_view list_key, JsonStamps stamps, int64_t now,
                          const std::function<void(JsonWriter &)> &write_records);

} // namespace drover::cli
