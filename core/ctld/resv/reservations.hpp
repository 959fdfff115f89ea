// reservations.hpp - the controller's advance reservations (scontrol create/update/delete
// reservation): their one owner. Keeps each in the state store (a record per reservation, so
// backups hold them and a restart finds them), ends or repeats them when their time is over, and
// answers for jobs: whether one may run in the reservation it names, and which nodes reservations
// keep it off and when (the scheduler's and the backfill plan's view).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "ctld/context.hpp"
#include "ctld/resv/reservation.hpp"
#include "ctld/resv/resv_spec.hpp"
#include "net/routes.hpp"

namespace drover::ctld {

struct Job;
class JobManager;
class NodeManager;

class Reservations {
  public:
    Reservations(Ctx &ctx, const NodeManager &nodes, JobManager &jobs);

    // Loads the reservations from the state store and has a job name one only when it may.
    void start();
    // Once a second: ends (or moves on, when recurring) the reservations whose time is over, and
    // asks for a scheduling pass when one began or ended.
    void tick();
    net::Routes routes();

    Status create(ResvSpec spec, std::string *name);
    Status update(const ResvSpec &spec);
    Status remove(const std::string &name);
    const Reservation *find(const std::string &name) const;
    const std::map<std::string, Reservation> &all() const { return resv_; }
    // The flags node index shows for the reservations it is in at now (node_shown_flags.hpp).
    uint32_t shown_flags(uint32_t index, int64_t now) const;

    // For a new job (owner and account known): the reservation it names exists and admits it.
    std::string check_submit(const Job &job) const;
    // Why job may not start now at all (its reservation has not begun, or is gone); nullptr
    // when it may.
    const char *hold_reason(const Job &job, int64_t now) const;
    // The nodes job may use at most (its reservation's, unless FLEX), or nullptr: any.
    const Bitmap *confine(const Job &job) const;
    // A stretch of time in which reservations bar job from nodes (end 0: for good).
    struct Window {
        const Bitmap *nodes;
        int64_t start, end;
        const Reservation *resv;
    };
    std::vector<Window> windows(const Job &job) const;
    // Takes out of usable the nodes reservations bar job from between now and its time limit's
    // end. True when a MAINT reservation took some (the job waits "Reserved for maintenance").
    bool restrict(const Job &job, int64_t now, Bitmap &usable) const;

  private:
    Status check_and_place(Reservation &r, bool creating) const;
    Status pick_nodes(Reservation &r) const;
    Bitmap held_past(int64_t start) const;
    uint32_t over_run_min() const;
    // The jobs running in reservation name, which ended at end, get ResvOverRun to finish.
    void cut_jobs(const std::string &name, int64_t end);
    void set_nodes(Reservation &r, const std::vector<uint32_t> &idx) const;
    void save(const Reservation &r);
    void erase(const std::string &name);
    void on_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_update(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);

    Ctx &ctx_;
    const NodeManager &nodes_;
    JobManager &jobs_;
    std::map<std::string, Reservation> resv_;
    uint32_t next_id_ = 1; // for generated names
    int64_t last_tick_ = 0;
};

} // namespace drover::ctld
