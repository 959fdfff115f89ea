// resv_text.hpp - advance reservations as the commands print them: their flags, scontrol show
// reservation's record and sinfo -T's table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "proto/message_generated.h"

namespace drover::cli {

// Whether the reservation holds its nodes at now. As Slurm's commands decide it, its end second
// still counts (start <= now <= end); one that never ends (end 0) is active once started.
bool resv_active(const proto::ReservationInfo &r, int64_t now);

// Its length as Slurm prints one: "01:00:00", "1-00:00:00"; "UNLIMITED" for one that never ends.
std::string resv_duration(const proto::ReservationInfo &r);

// One scontrol show reservation record, continuation lines indented by three spaces and ending
// in a blank line; with one_liner all on one line. now decides State (ACTIVE or INACTIVE).
std::string show_reservation(const proto::ReservationInfo &r, int64_t now, bool one_liner);

// sinfo -T: a header (unless !header) and one line per reservation; "No reservations in the
// system" when there are none.
std::string sinfo_reservations(const std::vector<const proto::ReservationInfo *> &resvs,
                               int64_t now, bool header);

} // namespace drover::cli
