// resv_args.hpp - the words of scontrol create/update/delete reservation, turned into the
// key/value pairs the controller reads (it checks every key and value itself).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drover::cli {

using ResvFields = std::vector<std::pair<std::string, std::string>>;

// Whether a key names the reservation: what Slurm's scontrol takes for ReservationName (at least
// "res", case-insensitive), or the controller's other names for it (Resv, Name).
bool is_resv_name_key(std::string_view key);

// Whether a create line's first entity word (NodeName, PartitionName or ReservationName, at
// least three letters, as "Key=..." or a bare word) is a reservation: Slurm's scontrol creates
// what the first such word names.
bool creates_reservation(std::span<const std::string> words);

// The pairs of a create or update line: each "Key=value" as is, "Key+=v" as ("Key+", "v") and
// "Key-=v" as ("Key-", "v"); the name key as "ReservationName". Bare words beginning with "res"
// ("reservation") are dropped; a bare "Skip" is passed on for the controller to answer. Throws
// drover::ParseError in Slurm's words, ending in not_done ("No reservation created." or "No
// reservation update."): "Misformatted parameter 'x', most options have a parameter after '='.
// <not_done>" or "Unknown parameter =x.  <not_done>".
ResvFields parse_resv_fields(std::span<const std::string> words, std::string_view not_done);

// update's pairs: parse_resv_fields, and a name is required ("Reservation must be given.  No
// reservation update.").
ResvFields parse_resv_update(std::span<const std::string> words);

// delete's arguments, "ReservationName=NAME" or the two words "reservation NAME": the name;
// nullopt when they name another entity (Slurm: "Invalid deletion entity: <first word>"). Throws
// drover::ParseError("Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'") for
// any other count or form.
std::optional<std::string> parse_resv_delete(std::span<const std::string> words);

} // namespace drover::cli
