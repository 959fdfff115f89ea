// resv_args.cpp - scontrol create/update/delete reservation arguments.
#include "cli/resv_args.hpp"

#include "cli/scontrol_args.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

// Slurm's scontrol names entities by at least three letters of the full word.
bool names_entity(std::string_view tag, std::string_view entity) {
    return abbreviates(tag, entity, 3);
}

} // namespace

bool is_resv_name_key(std::string_view key) {
    return names_entity(key, "ReservationName") || iequals(key, "resv") || iequals(key, "name");
}

bool creates_reservation(std::span<const std::string> words) {
    return create_target(words) == CreateWhat::reservation;
}

ResvFields parse_resv_fields(std::span<const std::string> words, std::string_view not_done) {
    ResvFields out;
    for (const auto &w : words) {
        std::size_t eq = w.find('=');
        if (eq == std::string::npos) {
            // "create reservation ...": the entity word, not a setting.
            if (istarts_with(w, "res")) continue;
            // Slurm's only bare setting; the controller says whether it takes it.
            if (abbreviates(w, "Skip", 2)) {
                out.emplace_back("Skip", "");
                continue;
            }
            throw ParseError("Misformatted parameter '" + w +
                             "', most options have a parameter after '='.  " +
                             std::string(not_done));
        }
        if (eq == 0) throw ParseError("Unknown parameter " + w + ".  " + std::string(not_done));
        std::string key = w.substr(0, eq);
        // "Users+=bob" arrives as key "Users+": the controller adds or removes by it.
        std::string_view base = key;
        if (base.ends_with('+') || base.ends_with('-')) base.remove_suffix(1);
        // The name key in one spelling, so that every form Slurm takes reaches the controller.
        if (is_resv_name_key(base)) key = "ReservationName" + key.substr(base.size());
        out.emplace_back(std::move(key), w.substr(eq + 1));
    }
    return out;
}

ResvFields parse_resv_update(std::span<const std::string> words) {
    constexpr std::string_view kNotDone = "No reservation update.";
    ResvFields fields = parse_resv_fields(words, kNotDone);
    for (const auto &[key, value] : fields)
        if (key == "ReservationName") return fields;
    throw ParseError("Reservation must be given.  " + std::string(kNotDone));
}

std::optional<std::string> parse_resv_delete(std::span<const std::string> words) {
    return delete_target(words, "ReservationName");
}

} // namespace drover::cli
