# The lab as a container image: JupyterLab with the Rust kernel (evcxr) and bpe-lab already
# compiled into the kernel's cache, so a student's first notebook runs without installing
# anything. scripts/image runs these same steps on a root filesystem built from Debian packages
# and times them (README, "Without installing anything").
#
# Built from the student handout, never from the instructors' checkout, which holds the
# solutions (instructor/, docs/samples/): everything in the build's folder ends up in the image,
# where students can open it. From the repository:
#
#   bpe-lab lab handout --output student-handout
#   docker build -t bpe-lab student-handout && docker run --rm -p 8888:8888 bpe-lab
#
# then open the http://127.0.0.1:8888/lab?token=... address it prints.
FROM rust:1-bookworm

# The handout's mark, first: in any other folder the build stops here ("not found"), before
# anything is copied. Run `bpe-lab lab handout` and build from the folder it writes.
COPY .bpe-lab-handout /tmp/

# As root: the Debian packages of binder/apt.txt (C toolchain, lld, python3-venv, ...), and the
# standard library's source, which evcxr's analyser reads to infer the types of `let` bindings
# (this image's rustup profile is minimal; the toolchain scripts/image tested with has it).
COPY binder/apt.txt binder/apt-install /tmp/binder/
RUN /tmp/binder/apt-install && rm -rf /var/lib/apt/lists/* /tmp/binder \
    && rustup component add rust-src

# The notebook user, as Binder and JupyterHub expect it (uid 1000).
ARG NB_USER=jovyan
ARG NB_UID=1000
RUN useradd --create-home --uid ${NB_UID} --shell /bin/bash ${NB_USER}
ENV USER=${NB_USER} HOME=/home/${NB_USER}
COPY --chown=${NB_UID}:${NB_UID} . /home/${NB_USER}/bpe-lab
USER ${NB_USER}
WORKDIR /home/${NB_USER}/bpe-lab

# As the user: binder/postBuild, that is scripts/lab setup (evcxr_jupyter, .venv with
# JupyterLab, the "rust" kernel spec, the warm-up that compiles bpe-lab into evcxr's cache).
RUN binder/postBuild

# JupyterHub only: its single-user server, at the hub's version
# (docker build --build-arg JUPYTERHUB_VERSION=5.2.1 ...).
ARG JUPYTERHUB_VERSION=
RUN if [ -n "${JUPYTERHUB_VERSION}" ]; then \
        .venv/bin/pip install --no-cache-dir "jupyterhub==${JUPYTERHUB_VERSION}"; fi

ENV PATH=/home/${NB_USER}/bpe-lab/.venv/bin:${PATH}
EXPOSE 8888
# binder/start gives the kernels the settings under which they reuse the warm-up's cache.
ENTRYPOINT ["binder/start"]
CMD ["jupyter", "lab", "--ip=0.0.0.0", "--port=8888", "--no-browser", "notebooks/"]
