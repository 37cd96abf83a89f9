#!/bin/bash
# py VER -> python of that release (own venv first, else the harness build, read-only)
py() { if [ -x venvs/adk-$1/bin/python ]; then echo venvs/adk-$1/bin/python; else echo <project>/.nox/builds/google-adk-$1/bin/python; fi; }
export PYTHONDONTWRITEBYTECODE=1
# W VER: writer run once per release -> db/w_VER.db
W() { rm -f db/w_$1.db; echo "### write $1"; $(py $1) dbss_step.py write $PWD/db/w_$1.db 2>&1 | tail -2; }
# R WVER RVER: copy writer db, reader reads -> db/r_WVER_RVER.db
R() { cp db/w_$1.db db/r_$1_$2.db; echo "### read $1 -> $2"; $(py $2) dbss_step.py read $PWD/db/r_$1_$2.db 2>&1 | tail -5; }
# RF FILE RVER: reader on a given file (copied to db/rf_<name>_RVER.db)
RF() { b=$(basename $1 .db); cp $1 db/rf_${b}_$2.db; echo "### read $1 -> $2"; $(py $2) dbss_step.py read $PWD/db/rf_${b}_$2.db 2>&1 | tail -5; }
# M MVER SRC DEST: adk migrate session run by release MVER
M() { echo "### migrate $2 -> $3 by $1"; [ "$2" != "$3" ] && rm -f $3; d=$(dirname $(py $1)); $d/adk migrate session --source_db_url sqlite:///$PWD/$2 --dest_db_url sqlite:///$PWD/$3 --log_level WARNING 2>&1 | grep -v -i "warn" | tail -3; echo "exit=${PIPESTATUS[0]}"; }
