// scontrol_part.cpp - scontrol create/update/delete partition: the words become key/value pairs
// (part_args.hpp) that the controller checks and applies; its refusal is printed in Slurm's words.
#include "cli/scontrol_part.hpp"

#include <optional>

#include "cli/part_args.hpp"
#include "cli/rpc.hpp"
#include "cli/scontrol_args.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "proto/key_values.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "scontrol";

// Sends one PartitionUpdateRequest; true when the controller did it, else report(error).
template <class Report>
bool send(const char *action, const PartFields &fields, const Report &report) {
    flatbuffers::FlatBufferBuilder fbb(256);
    auto kv_vector = proto::key_values(fbb, fields);
    auto req = proto::CreatePartitionUpdateRequest(fbb, fbb.CreateString(action), kv_vector);
    net::Reply reply;
    return ask_ctld<proto::OkResponse>(reply, fbb, proto::Body::PartitionUpdateRequest, req.Union(),
                                       report) != nullptr;
}

// The words read by parse, or nullopt after "scontrol: error: <why>" as Slurm's scontrol says it.
template <class Parse>
std::optional<PartFields> parsed(const Parse &parse, std::span<const std::string> words) {
    try {
        return parse(words);
    } catch (const ParseError &e) {
        print_error(kProg, e.what());
        return std::nullopt;
    }
}

} // namespace

int create_partition(std::span<const std::string> words) {
    auto fields = parsed(parse_part_create, words);
    if (!fields) return 1;
    return send("create", *fields, error_line("Error creating the partition: ")) ? 0 : 1;
}

int update_partition(std::span<const std::string> words) {
    auto fields = parsed(parse_part_update, words);
    if (!fields) return 1;
    return send("update", *fields, error_line("slurm_update error: ")) ? 0 : 1;
}

int delete_partition(std::span<const std::string> words) {
    std::optional<std::string> name;
    try {
        name = delete_target(words, "PartitionName");
    } catch (const ParseError &e) {
        print_error(kProg, e.what());
        return 1;
    }
    if (!name) {
        write_err("Invalid deletion entity: " + words[0] + "\n");
        return 1;
    }
    // Slurm names a failure by the first word, in a buffer that keeps 63 characters of it.
    std::string label = ("delete_partition " + words[0]).substr(0, 63);
    return send("delete", {{"PartitionName", *name}}, error_line(label + ": ")) ? 0 : 1;
}

} // namespace drover::cli
