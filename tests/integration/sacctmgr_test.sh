#!/usr/bin/env bash
# sacctmgr_test.sh - sacctmgr against a real controller and accounting/lmdb: clusters, accounts,
# users and associations added, shown (fixed, -P, -p, -n, format=), modified and deleted; the
# commit question read from stdin (y commits, anything else discards); who may change what;
# AccountingStorageEnforce=associations at submission, default accounts recorded on jobs; the
# associations surviving a controller restart.
source "$(dirname "$0")/lib.sh"
source "$ROOT/tests/integration/users.sh"
make_test_users
start_cluster 1 "AccountingStorageEnforce=associations"
cd "$T"

# ---- enforcement before any association exists ----
out=$(sbatch --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" \
  "$rc|$out" "enforced, a user without an association cannot submit"

# ---- add, with -i ----
assert_eq " Adding Cluster(s)
  Name           = local" "$(sacctmgr -i add cluster local)" "add cluster"
out=$(sacctmgr -i add account physics Description="Physics dept" Organization=Science)
assert_contains " Adding Account(s)
  physics" "$out" "add account"
assert_contains "  A = physics    C = local" "$out" "with its association on the cluster"
sacctmgr -i add account theory parent=physics >/dev/null || fail "add account with a parent"
out=$(sacctmgr -i add user alice,bob account=physics adminlevel=Operator)
assert_contains " Adding User(s)
  alice
  bob" "$out" "add users"
out=$(sacctmgr -i add account physics); rc=$?
assert_eq "1| Nothing new added." "$rc|$out" "adding what exists: nothing new, status 1"

# ---- show ----
assert_eq "      User   Def Acct     Admin 
---------- ---------- --------- 
     alice    physics  Operator 
       bob    physics  Operator 
      root       root Administ+ " "$(sacctmgr show user)" "show user: Slurm's columns"
assert_eq "physics|Physics dept|science theory|theory|physics" \
  "$(sacctmgr -n -P show account where name=physics,theory | xargs)" "show account -n -P, where"
assert_eq "Account|Descr|Org|" "$(sacctmgr -p show account | head -1)" "-p ends lines with |"
assert_eq "local|root|| local|root|root| local|physics||root local|physics|alice| local|physics|bob| local|theory||physics" \
  "$(sacctmgr -n -P show assoc format=cluster,account,user,parentname | xargs)" "show assoc in tree order, format="
assert_eq "local|physics|alice" "$(sacctmgr -n -P list associations where user=alice format=Cluster,Account,User)" "list associations where user="
assert_match "^ +local +[0-9.]+ +[0-9]+ $" "$(sacctmgr -n show cluster format=cluster,controlhost,controlport)" "show cluster"
assert_eq "   Account " "$(sacctmgr show account format=account%10 | head -1)" "format= with a width"

# ---- the commit question ----
out=$(echo n | sacctmgr add account chem)
assert_contains "Would you like to commit changes? (You have 30 seconds to decide)
(N/y): " "$out" "without -i, sacctmgr asks"
assert_contains " Changes Discarded" "$out" "n discards"
assert_eq "" "$(sacctmgr -n -P show account where name=chem)" "and nothing was added"
echo y | sacctmgr add account chem >/dev/null
assert_eq "chem" "$(sacctmgr -n -P show account where name=chem format=account)" "y commits"
out=$(sacctmgr add account bio </dev/null)
assert_contains " Changes Discarded" "$out" "end of input discards"

# ---- modify ----
assert_eq " Modified users...
  alice" "$(sacctmgr -i modify user where name=alice set adminlevel=None)" "modify user where ... set"
sacctmgr -i add user alice account=chem >/dev/null
sacctmgr -i modify user alice set defaultaccount=chem >/dev/null
assert_eq "alice|chem|None" "$(sacctmgr -n -P show user alice)" "the new default account and level"
out=$(sacctmgr -i modify user alice set defaultaccount=theory 2>&1); rc=$?
assert_eq "1| User 'alice' has no association with account 'theory'" "$rc|$out" "a default account needs an association"
sacctmgr -i modify account chem set description=Chemistry parent=physics >/dev/null
assert_eq "chem|Chemistry" "$(sacctmgr -n -P show account chem format=account,descr)" "modify account set description"
assert_eq "local|chem||physics" "$(sacctmgr -n -P show assoc where account=chem user= format=cluster,account,user,parentname | head -1)" "and its parent"

# ---- jobs: enforcement and default accounts ----
sacctmgr -i add user root account=physics >/dev/null
j1=$(sbatch --parsable -A physics --wrap true)
j2=$(sbatch --parsable --wrap true)
wait_job "$j1"; wait_job "$j2"
assert_eq "$j1|physics $j2|root" "$(sacct -j "$j1,$j2" -X -n -P -o JobID,Account | xargs)" \
  "the account is recorded on every job; without -A the user's default"
out=$(sbatch -A theory --wrap true 2>&1); rc=$?
assert_eq "1|sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified" \
  "$rc|$out" "an account the user is not associated with is refused"
out=$(sbatch -A nosuch --wrap true 2>&1); rc=$?
assert_eq 1 "$rc" "an unknown account is refused"

# ---- who may change ----
if [ "$MULTI" = 1 ]; then
  out=$(as drvtest1 sacctmgr -i add account evil 2>&1); rc=$?
  assert_eq "1|sacctmgr: error: Access/permission denied" "$rc|$out" "an ordinary user may not change"
  assert_match "alice" "$(as drvtest1 sacctmgr -n -P show user)" "but may show"
  sacctmgr -i add user drvtest1 account=physics adminlevel=Administrator >/dev/null
  assert_match "Adding Account" "$(as drvtest1 sacctmgr -i add account labs)" "AdminLevel=Administrator may change"
  sacctmgr -i add user drvtest2 account=physics adminlevel=Operator >/dev/null
  out=$(as drvtest2 sacctmgr -i add account more 2>&1); rc=$?
  assert_eq "1|sacctmgr: error: Access/permission denied" "$rc|$out" "an Operator may not"
  cd /tmp
  j3=$(as drvtest2 sbatch --parsable -o /dev/null --wrap true)
  cd "$T"
  wait_job "$j3"
  assert_eq "physics" "$(sacct -j "$j3" -X -n -P -o Account)" "another user's job gets their default account"
fi

# ---- delete ----
out=$(sacctmgr -i delete user alice where account=chem 2>&1); rc=$?
assert_eq "1| Account 'chem' is the default account of user 'alice'; change it first" "$rc|$out" \
  "a user's default account association stays"
sacctmgr -i modify user alice set defaultaccount=physics >/dev/null
assert_eq " Deleting user associations...
  C = local      A = chem       U = alice" "$(sacctmgr -i delete user alice where account=chem | sed 's/ *$//')" \
  "delete user where account= removes one association"
out=$(sacctmgr -i delete account physics 2>&1); rc=$?
assert_eq 1 "$rc" "an account that is a default account or has sub-accounts is kept"
assert_eq " Deleting users...
  bob" "$(sacctmgr -i delete user bob)" "delete user"
assert_eq "" "$(sacctmgr -n -P show assoc where user=bob)" "with its associations"

# ---- a restart keeps them ----
kill_ctld TERM
restart_ctld
wait_until 60 squeue -h || fail "controller did not come back"
assert_eq "alice|physics|None" "$(sacctmgr -n -P show user alice)" "the associations survive a restart"
assert_match "^[0-9]+$" "$(sbatch --parsable -A physics -o /dev/null --wrap true)" "and enforcement still finds them"
finish
