// abi_layout_test.cpp - the ABI tables keep their layout: reordering or retyping a member fails
// to compile. Offsets are for LP64 (x86_64, aarch64), the platforms Drover builds for.
#include <cstddef>

#include <gtest/gtest.h>

#include <drover/accounting.h>
#include <drover/auth.h>
#include <drover/plugin.h>
#include <drover/priority.h>
#include <drover/proctrack.h>
#include <drover/sched.h>
#include <drover/select.h>
#include <drover/switch.h>
#include <drover/views.h>

#define AT(T, member, off) static_assert(offsetof(T, member) == (off), #T "." #member " moved")
#define SIZE(T, n) static_assert(sizeof(T) >= (n), #T " shrank")

static_assert(sizeof(void *) == 8, "the layout below is for LP64");

AT(drover_str, ptr, 0);
AT(drover_str, len, 8);
AT(drover_bitmap_view, words, 0);
AT(drover_bitmap_view, nbits, 8);
AT(drover_bitmap, words, 0);
AT(drover_bitmap, nbits, 8);
static_assert(sizeof(drover_error) == 256);

AT(drover_host_api, struct_size, 0);
AT(drover_host_api, abi_major, 4);
AT(drover_host_api, abi_minor, 6);
AT(drover_host_api, log, 8);
AT(drover_host_api, conf_get, 16);
AT(drover_host_api, role, 24);
SIZE(drover_host_api, 32);

AT(drover_plugin_desc, struct_size, 0);
AT(drover_plugin_desc, abi_major, 4);
AT(drover_plugin_desc, abi_minor, 6);
AT(drover_plugin_desc, type, 8);
AT(drover_plugin_desc, name, 16);
AT(drover_plugin_desc, version, 24);
AT(drover_plugin_desc, init, 32);
AT(drover_plugin_desc, fini, 40);
AT(drover_plugin_desc, ops, 48);
SIZE(drover_plugin_desc, 56);

AT(drover_select_ops, struct_size, 0);
AT(drover_select_ops, node_init, 8);
AT(drover_select_ops, job_test, 16);
AT(drover_select_ops, job_begin, 24);
AT(drover_select_ops, job_fini, 32);
AT(drover_select_ops, job_cpus_on_node, 40);
SIZE(drover_select_ops, 48);

AT(drover_sched_host, struct_size, 0);
AT(drover_sched_host, pending_count, 8);
AT(drover_sched_host, pending_job, 16);
AT(drover_sched_host, try_start, 24);
AT(drover_sched_host, now, 32);
AT(drover_sched_ops, struct_size, 0);
AT(drover_sched_ops, job_priority, 8);
AT(drover_sched_ops, schedule, 16);
SIZE(drover_sched_ops, 24);

AT(drover_auth_ops, struct_size, 0);
AT(drover_auth_ops, cred_create, 8);
AT(drover_auth_ops, cred_verify, 16);
SIZE(drover_auth_ops, 24);

AT(drover_acct_ops, struct_size, 0);
AT(drover_acct_ops, job_event, 8);
AT(drover_acct_ops, job_query, 16);
SIZE(drover_acct_ops, 24);

AT(drover_switch_ops, struct_size, 0);
AT(drover_switch_ops, job_init, 8);
AT(drover_switch_ops, job_fini, 16);
SIZE(drover_switch_ops, 24);

AT(drover_proctrack_ops, struct_size, 0);
AT(drover_proctrack_ops, cont_create, 8);
AT(drover_proctrack_ops, cont_signal, 16);
AT(drover_proctrack_ops, cont_pids, 24);
AT(drover_proctrack_ops, cont_destroy, 32);
SIZE(drover_proctrack_ops, 40);

AT(drover_node_view, struct_size, 0);
AT(drover_node_view, name, 8);
AT(drover_node_view, cpus, 24);
AT(drover_node_view, sockets, 28);
AT(drover_node_view, cores_per_socket, 32);
AT(drover_node_view, threads_per_core, 36);
AT(drover_node_view, real_memory_mb, 40);
AT(drover_node_view, tmp_disk_mb, 48);
AT(drover_node_view, weight, 56);
AT(drover_node_view, features, 64);
AT(drover_node_view, state, 80);
AT(drover_node_view, flags, 84);

AT(drover_job_view, struct_size, 0);
AT(drover_job_view, job_id, 4);
AT(drover_job_view, user_id, 8);
AT(drover_job_view, group_id, 12);
AT(drover_job_view, name, 16);
AT(drover_job_view, partition, 32);
AT(drover_job_view, priority, 48);
AT(drover_job_view, state, 52);
AT(drover_job_view, min_nodes, 56);
AT(drover_job_view, max_nodes, 60);
AT(drover_job_view, num_tasks, 64);
AT(drover_job_view, cpus_per_task, 68);
AT(drover_job_view, mem_per_node_mb, 72);
AT(drover_job_view, time_limit_min, 80);
AT(drover_job_view, submit_time, 88);
AT(drover_job_view, exclusive, 96);

AT(drover_acct_job, struct_size, 0);
AT(drover_acct_job, job_id, 4);
AT(drover_acct_job, user_id, 8);
AT(drover_acct_job, group_id, 12);
AT(drover_acct_job, cluster, 16);
AT(drover_acct_job, name, 32);
AT(drover_acct_job, partition, 48);
AT(drover_acct_job, account, 64);
AT(drover_acct_job, node_list, 80);
AT(drover_acct_job, work_dir, 96);
AT(drover_acct_job, alloc_nodes, 112);
AT(drover_acct_job, alloc_cpus, 116);
AT(drover_acct_job, req_cpus, 120);
AT(drover_acct_job, req_mem_mb, 128);
AT(drover_acct_job, state, 136);
AT(drover_acct_job, exit_status, 140);
AT(drover_acct_job, time_limit_min, 144);
AT(drover_acct_job, submit_time, 152);
AT(drover_acct_job, eligible_time, 160);
AT(drover_acct_job, start_time, 168);
AT(drover_acct_job, end_time, 176);
AT(drover_acct_job, cancelled_by, 184);

// Appended in ABI 1.1 and 1.2: new members only ever follow the old ones.
AT(drover_acct_job, array_job_id, 188);
AT(drover_acct_job, array_task_id, 192);
AT(drover_acct_job, comment, 200);
AT(drover_acct_job, qos, 216);
AT(drover_acct_job, alloc_gres, 232);
AT(drover_acct_job, het_job_id, 248); // ABI 1.12
AT(drover_acct_job, het_job_offset, 252);
AT(drover_node_view, gres, 88);
AT(drover_job_view, mem_per_cpu_mb, 104);
AT(drover_job_view, ntasks_per_node, 112);
AT(drover_job_view, min_cpus_per_node, 116);
AT(drover_job_view, tmp_disk_mb, 120);
AT(drover_job_view, gres, 128);
AT(drover_job_view, gpus, 144);
AT(drover_job_view, gpus_per_node, 148);
AT(drover_job_view, gpus_per_task, 152);
AT(drover_job_view, constraint, 160);
AT(drover_job_view, required_nodes, 176);
AT(drover_job_view, excluded_nodes, 192);
AT(drover_job_view, contiguous, 208);
AT(drover_job_view, share, 212);
AT(drover_job_view, start_time, 216);
AT(drover_job_view, end_time, 224);
AT(drover_job_view, nice, 232);
AT(drover_select_ops, job_alloc_detail, 48);
AT(drover_sched_host, node_count, 40);
AT(drover_sched_host, node, 48);
AT(drover_sched_host, running_count, 56);
AT(drover_sched_host, running_job, 64);
AT(drover_sched_host, job_nodes, 72);
AT(drover_sched_host, usable_nodes, 80);
AT(drover_sched_host, try_start_on, 88);
AT(drover_sched_host, set_expected_start, 96);
AT(drover_sched_host, parameters, 104);

// Appended in ABI 1.3: limits and usage of a proctrack container.
AT(drover_proctrack_ops, cont_limit, 40);
AT(drover_proctrack_ops, cont_usage, 48);

// Appended in ABI 1.5: the job's QOS.
AT(drover_job_view, qos, 240);
AT(drover_acct_job, qos, 216);
SIZE(drover_proctrack_ops, 56);
AT(drover_cont_limits, struct_size, 0);
AT(drover_cont_limits, mem_bytes, 8);
AT(drover_cont_limits, cpus, 16);
AT(drover_cont_limits, deny_devices, 32); // ABI 1.6
SIZE(drover_cont_limits, 48);
AT(drover_cont_usage, struct_size, 0);
AT(drover_cont_usage, mem_bytes, 8);
AT(drover_cont_usage, max_mem_bytes, 16);
AT(drover_cont_usage, cpu_user_usec, 24);
AT(drover_cont_usage, cpu_sys_usec, 32);
AT(drover_cont_usage, disk_read_bytes, 40);
AT(drover_cont_usage, disk_write_bytes, 48);
AT(drover_cont_usage, oom_kills, 56);
SIZE(drover_cont_usage, 64);
static_assert(DROVER_STEP_BATCH == 0xfffffffbu && DROVER_STEP_EXTERN == 0xfffffffcu);

AT(drover_acct_query, struct_size, 0);
AT(drover_acct_query, job_ids, 8);
AT(drover_acct_query, job_id_count, 16);
AT(drover_acct_query, user_id, 20);
AT(drover_acct_query, start_after, 24);
AT(drover_acct_query, end_before, 32);
AT(drover_acct_query, duplicates, 40); // ABI 1.3

// ABI 1.3: step records (the last three members appended to the step while 1.3 was open) and the
// ops that carry them.
AT(drover_acct_ops, step_event, 24);
AT(drover_acct_ops, job_step_query, 32);
SIZE(drover_acct_ops, 40);
AT(drover_acct_step, struct_size, 0);
AT(drover_acct_step, job_id, 4);
AT(drover_acct_step, step_id, 8);
AT(drover_acct_step, name, 16);
AT(drover_acct_step, node_list, 32);
AT(drover_acct_step, nodes, 48);
AT(drover_acct_step, tasks, 52);
AT(drover_acct_step, cpus, 56);
AT(drover_acct_step, req_mem_mb, 64);
AT(drover_acct_step, state, 72);
AT(drover_acct_step, exit_status, 76);
AT(drover_acct_step, start_time, 80);
AT(drover_acct_step, end_time, 88);
AT(drover_acct_step, cancelled_by, 96);
AT(drover_acct_step, max_rss_task, 100);
AT(drover_acct_step, max_rss, 104);
AT(drover_acct_step, ave_rss, 112);
AT(drover_acct_step, max_rss_node, 120);
AT(drover_acct_step, max_vsize, 136);
AT(drover_acct_step, ave_vsize, 144);
AT(drover_acct_step, max_vsize_node, 152);
AT(drover_acct_step, ave_cpu_usec, 168);
AT(drover_acct_step, user_cpu_usec, 176);
AT(drover_acct_step, sys_cpu_usec, 184);
AT(drover_acct_step, max_disk_read, 192);
AT(drover_acct_step, max_disk_write, 200);
AT(drover_acct_step, max_disk_read_node, 208);
AT(drover_acct_step, max_disk_write_node, 224);
AT(drover_acct_step, tres_alloc, 240);
AT(drover_acct_step, min_cpu_usec, 256);
AT(drover_acct_step, ave_disk_read, 264);
AT(drover_acct_step, ave_disk_write, 272);
SIZE(drover_acct_step, 280);
// ABI 1.3: sacctmgr's records and ops.
AT(drover_acct_ops, assoc_update, 40);
AT(drover_acct_ops, assoc_list, 48);
SIZE(drover_acct_ops, 56);
AT(drover_acct_assoc, struct_size, 0);
AT(drover_acct_assoc, kind, 4);
AT(drover_acct_assoc, name, 8);
AT(drover_acct_assoc, cluster, 24);
AT(drover_acct_assoc, account, 40);
AT(drover_acct_assoc, user, 56);
AT(drover_acct_assoc, partition, 72);
AT(drover_acct_assoc, parent, 88);
AT(drover_acct_assoc, description, 104);
AT(drover_acct_assoc, organization, 120);
AT(drover_acct_assoc, default_account, 136);
AT(drover_acct_assoc, admin_level, 152);
// ABI 1.8: the settings text (limits, QOS).
AT(drover_acct_assoc, attrs, 160);
SIZE(drover_acct_assoc, 176);

// ABI 1.4: node events (sacctmgr show event) and a sched plugin's backfill counters (sdiag).
AT(drover_acct_ops, node_event, 56);
AT(drover_acct_ops, node_event_query, 64);
SIZE(drover_acct_ops, 72);
AT(drover_acct_node_event, struct_size, 0);
AT(drover_acct_node_event, state, 4);
AT(drover_acct_node_event, flags, 8);
AT(drover_acct_node_event, reason_uid, 12);
AT(drover_acct_node_event, cluster, 16);
AT(drover_acct_node_event, node_name, 32);
AT(drover_acct_node_event, reason, 48);
AT(drover_acct_node_event, start_time, 64);
AT(drover_acct_node_event, end_time, 72);
SIZE(drover_acct_node_event, 80);
AT(drover_acct_event_query, struct_size, 0);
AT(drover_acct_event_query, cluster_count, 4);
AT(drover_acct_event_query, clusters, 8);
AT(drover_acct_event_query, node_names, 16);
AT(drover_acct_event_query, node_count, 24);
AT(drover_acct_event_query, period_start, 32);
AT(drover_acct_event_query, period_end, 40);
SIZE(drover_acct_event_query, 48);
AT(drover_sched_ops, stats, 24);
SIZE(drover_sched_ops, 32);
AT(drover_sched_stats, struct_size, 0);
AT(drover_sched_stats, last_depth, 4);
AT(drover_sched_stats, last_depth_try, 8);
AT(drover_sched_stats, last_queue_length, 12);
AT(drover_sched_stats, last_table_size, 16);
AT(drover_sched_stats, backfilled_jobs, 24);
AT(drover_sched_stats, backfilled_jobs_since_reset, 32);
AT(drover_sched_stats, cycles, 40);
AT(drover_sched_stats, last_cycle_when, 48);
AT(drover_sched_stats, last_cycle_usec, 56);
AT(drover_sched_stats, max_cycle_usec, 64);
AT(drover_sched_stats, cycle_usec_sum, 72);
AT(drover_sched_stats, depth_sum, 80);
AT(drover_sched_stats, depth_try_sum, 88);
AT(drover_sched_stats, queue_length_sum, 96);
AT(drover_sched_stats, table_size_sum, 104);
SIZE(drover_sched_stats, 112);

// ABI 1.5: sacct's filters in the accounting query, after the 1.3 member's padding.
AT(drover_acct_query, user_ids, 48);
AT(drover_acct_query, user_id_count, 56);
AT(drover_acct_query, state_count, 60);
AT(drover_acct_query, states, 64);
AT(drover_acct_query, accounts, 72);
AT(drover_acct_query, account_count, 80);
AT(drover_acct_query, partition_count, 84);
AT(drover_acct_query, partitions, 88);
AT(drover_acct_query, names, 96);
AT(drover_acct_query, name_count, 104);
// ABI 1.7: sacct's cluster and node filters.
AT(drover_acct_query, clusters, 112);
AT(drover_acct_query, cluster_count, 120);
AT(drover_acct_query, node_count, 124);
AT(drover_acct_query, nodes, 128);
AT(drover_acct_query, node_list_match, 136);
SIZE(drover_acct_query, 144);

// ABI 1.9: priority plugins, and the partition's PriorityTier in a pending job's view.
AT(drover_job_view, partition_tier, 256);
// ABI 1.10: the job's reservation, and the windows reservations bar a job from.
AT(drover_job_view, reservation, 264);
AT(drover_job_view, account, 280);
SIZE(drover_job_view, 296);
AT(drover_sched_host, blocked_count, 112);
AT(drover_sched_host, blocked_window, 120);
SIZE(drover_sched_host, 128);
AT(drover_priority_assoc, parent, 4);
AT(drover_priority_assoc, account, 8);
AT(drover_priority_assoc, user, 24);
AT(drover_priority_assoc, shares_raw, 40);
AT(drover_priority_assoc, priority, 44);
AT(drover_priority_assoc, usage_raw, 48);
AT(drover_priority_assoc, shares_norm, 56);
AT(drover_priority_assoc, usage_norm, 64);
AT(drover_priority_assoc, usage_eff, 72);
AT(drover_priority_assoc, level_fs, 80);
AT(drover_priority_assoc, fairshare, 88);
SIZE(drover_priority_assoc, 96);
AT(drover_priority_cluster, now, 8);
AT(drover_priority_cluster, cpus, 16);
AT(drover_priority_cluster, gpus, 40);
AT(drover_priority_cluster, max_qos_priority, 48);
AT(drover_priority_cluster, max_partition_factor, 56);
SIZE(drover_priority_cluster, 64);
AT(drover_priority_job, job, 8);
AT(drover_priority_job, assoc, 16);
AT(drover_priority_job, eligible_time, 24);
AT(drover_priority_job, qos_priority, 32);
AT(drover_priority_job, partition_factor, 36);
AT(drover_priority_job, cpus, 40);
AT(drover_priority_job, gpus, 64);
AT(drover_priority_job, site_factor, 72);
SIZE(drover_priority_job, 80);
AT(drover_priority_factors, age, 8);
AT(drover_priority_factors, qos, 48);
AT(drover_priority_factors, tres, 56);
AT(drover_priority_factors, site, 88);
AT(drover_priority_factors, nice, 96);
SIZE(drover_priority_factors, 104);
AT(drover_priority_ops, fairshare, 8);
AT(drover_priority_ops, job_priority, 16);
AT(drover_priority_ops, weights, 24);
AT(drover_priority_ops, fair_tree, 32);
SIZE(drover_priority_ops, 40);
static_assert(DROVER_PRIORITY_SHARES_PARENT == 0xffffffffu && DROVER_PRIORITY_TRES_COUNT == 4);

// The constants are part of the ABI too.
static_assert(DROVER_OK == 0 && DROVER_EINVAL == -22 && DROVER_EBUSY == -16 &&
              DROVER_ENOSPC == -28 && DROVER_EPERM == -1 && DROVER_ENOENT == -2 &&
              DROVER_EIO == -5);
static_assert(DROVER_SELECT_RUN_NOW == 0 && DROVER_SELECT_TEST_ONLY == 1);
static_assert(DROVER_ACCT_JOB_SUBMIT == 1 && DROVER_ACCT_JOB_START == 2 &&
              DROVER_ACCT_JOB_END == 3 && DROVER_ACCT_STEP_START == 4 && DROVER_ACCT_STEP_END == 5);
static_assert(DROVER_ACCT_CLUSTER == 1 && DROVER_ACCT_ACCOUNT == 2 && DROVER_ACCT_USER == 3 &&
              DROVER_ACCT_ASSOC == 4 && DROVER_ADMIN_NONE == 0 && DROVER_ADMIN_OPERATOR == 1 &&
              DROVER_ADMIN_ADMINISTRATOR == 2);
static_assert(DROVER_INFINITE == 0xffffffffu && DROVER_NO_VAL == 0xfffffffeu);

// The checks above run at compile time; this keeps the file visible in the test list.
TEST(PluginAbiLayout, TablesKeepTheirOffsets) {
    SUCCEED();
}
