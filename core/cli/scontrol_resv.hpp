// scontrol_resv.hpp - scontrol's reservation commands: create, update, delete and show. Each
// prints what Slurm's scontrol prints and returns the exit status.
#pragma once

#include <span>
#include <string>

namespace drover::cli {

// create reservation KEY=VALUE...: "Reservation created: NAME"; refused, "Error creating the
// reservation: <why>". words: what follows "create" (at least one).
int create_reservation(std::span<const std::string> words);

// update ReservationName=NAME KEY=VALUE...: "Reservation updated."; refused, "Error updating the
// reservation: <why>".
int update_reservation(std::span<const std::string> words);

// delete ReservationName=NAME (or "reservation NAME"): prints nothing; refused,
// "delete_reservation <first word>: <why>". words: what follows "delete" (at least one).
int delete_reservation(std::span<const std::string> words);

// show reservation [NAME]: each record, "No reservations in the system" when there are none (not
// with quiet), "Reservation NAME not found" (exit 1) for a name the controller does not know.
int show_reservations(std::span<const std::string> rest, bool one_liner, bool quiet);

} // namespace drover::cli
