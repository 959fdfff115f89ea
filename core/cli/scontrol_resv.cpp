// scontrol_resv.cpp - scontrol create/update/delete/show reservation: the words become key/value
// pairs the controller reads and checks; its answer is printed in Slurm's words.
#include "cli/scontrol_resv.hpp"

#include <optional>

#include "cli/load_records.hpp"
#include "cli/resv_args.hpp"
#include "cli/resv_text.hpp"
#include "cli/rpc.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "proto/key_values.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "scontrol";

// Sends one ReservationUpdateRequest. The name the controller created, updated or deleted; on a
// refusal, report(error) and nullopt.
template <class Report>
std::optional<std::string> send(const char *action, const ResvFields &fields,
                                const Report &report) {
    flatbuffers::FlatBufferBuilder fbb(256);
    auto kv_vector = proto::key_values(fbb, fields);
    auto req = proto::CreateReservationUpdateRequest(fbb, fbb.CreateString(action), kv_vector);
    net::Reply reply;
    const auto *r = ask_ctld<proto::ReservationUpdateResponse>(
        reply, fbb, proto::Body::ReservationUpdateRequest, req.Union(), report);
    if (!r) return std::nullopt;
    return r->name() ? r->name()->str() : std::string();
}

// Slurm's scontrol follows a refused create with a hint when no nodes could be found.
void create_refused(const net::RpcError &e) {
    const std::string why = e.what();
    write_err("Error creating the reservation: " + why + "\n");
    if (why == "Requested nodes are busy" || why == "Requested node configuration is not available")
        write_out("Note, unless nodes are directly requested a reservation must exist in a single "
                  "partition.\nIf no partition is requested the default partition is assumed.\n");
}

// Runs parse; a refusal of the words is "scontrol: error: <why>", as Slurm's scontrol says it.
template <class Parse>
bool parsed(const Parse &parse) {
    try {
        parse();
        return true;
    } catch (const ParseError &e) {
        print_error(kProg, e.what());
        return false;
    }
}

} // namespace

int create_reservation(std::span<const std::string> words) {
    // Slurm's scontrol creates the entity the first entity word names; Drover creates
    // reservations only.
    if (!creates_reservation(words)) {
        print_error(kProg, "Invalid creation entity: " + words[0]);
        return 1;
    }
    ResvFields fields;
    if (!parsed([&] { fields = parse_resv_fields(words, "No reservation created."); })) return 1;
    auto name = send("create", fields, create_refused);
    if (!name) return 1;
    write_out("Reservation created: " + *name + "\n");
    return 0;
}

int update_reservation(std::span<const std::string> words) {
    ResvFields fields;
    if (!parsed([&] { fields = parse_resv_update(words); })) return 1;
    if (!send("update", fields, error_line("Error updating the reservation: "))) return 1;
    write_out("Reservation updated.\n");
    return 0;
}

int delete_reservation(std::span<const std::string> words) {
    std::optional<std::string> name;
    if (!parsed([&] { name = parse_resv_delete(words); })) return 1;
    if (!name) {
        write_err("Invalid deletion entity: " + words[0] + "\n");
        return 1;
    }
    // Slurm names a failure by the first word, in a buffer that keeps 63 characters of it.
    std::string label = ("delete_reservation " + words[0]).substr(0, 63);
    return send("delete", {{"ReservationName", *name}}, error_line(label + ": ")) ? 0 : 1;
}

int show_reservations(std::span<const std::string> rest, bool one_liner, bool quiet) {
    const std::string name = rest.empty() ? std::string() : rest[0];
    net::Reply reply;
    const auto *r = load_reservations(reply, name, "slurm_load_reservations error: ");
    if (!r) return 1;
    const int64_t now = reply_time(r->now());
    std::string out;
    for (const auto *resv : records_of(r->reservations()))
        if (name.empty() || (resv->name() && resv->name()->str() == name))
            out += show_reservation(*resv, now, one_liner);
    // Both on standard output, as Slurm's scontrol prints them.
    if (out.empty() && !name.empty()) {
        if (!quiet) write_out("Reservation " + name + " not found\n");
        return 1;
    }
    if (out.empty() && !quiet) out = "No reservations in the system\n";
    write_out(out);
    return 0;
}

} // namespace drover::cli
