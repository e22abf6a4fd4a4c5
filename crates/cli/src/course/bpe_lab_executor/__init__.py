"""bpe-lab's notebook executor: runs a Jupyter notebook headless with its real kernel and
reports what each code cell did. Split by role:

- ``cli``         arguments, exit codes, reading and writing notebooks, the entry point;
- ``execute``     the kernel and the cells: start, run, time limits, output cap, shutdown;
- ``outputs``     what a cell's outputs say (errors, panics, out of memory) and their size;
- ``summary``     the JSON summary printed on stdout (parsed by bpe-lab's ``executor::Run``);
- ``watchdog``    limits for the kernel and a process that kills it if the executor dies;
- ``evcxr_cache`` the kernel's build settings and the repair of evcxr's compile cache.

Run it as ``python path/to/bpe_lab_executor ARGS`` (or ``python -m bpe_lab_executor``); the
bpe-lab binary embeds these files and writes them out before it starts one. The usage is in
``cli``. Needs nbclient, nbformat and jupyter_client (scripts/python-requirements.txt) to run
a kernel; everything but ``execute`` imports without them.
"""
