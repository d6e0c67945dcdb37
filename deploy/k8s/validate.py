#!/usr/bin/env python3
"""Sanity checks of the Kubernetes manifests without a cluster (no kubectl): the YAML
parses, each document has the kind and fields this deployment relies on, and the Indexed
Job's completions, parallelism and COUNT agree. Not a substitute for running them."""
import pathlib
import sys

import yaml

here = pathlib.Path(__file__).parent
docs = {p.name: list(yaml.safe_load_all(p.read_text())) for p in sorted(here.glob("*.yaml"))}
problems = []


def need(cond, what):
    if not cond:
        problems.append(what)


pvc = docs["pvc.yaml"][0]
need(pvc["kind"] == "PersistentVolumeClaim", "pvc.yaml: not a PVC")
need("ReadWriteMany" in pvc["spec"]["accessModes"], "pvc.yaml: shards need ReadWriteMany")
claim = pvc["metadata"]["name"]

job = docs["tournament-job.yaml"][0]
need(job["apiVersion"] == "batch/v1" and job["kind"] == "Job", "tournament-job: not a batch/v1 Job")
spec = job["spec"]
need(spec.get("completionMode") == "Indexed", "tournament-job: completionMode must be Indexed")
pod = spec["template"]["spec"]
need(pod["restartPolicy"] in ("Never", "OnFailure"), "tournament-job: restartPolicy")
c = pod["containers"][0]
env = {e["name"]: e["value"] for e in c.get("env", [])}
need(int(env.get("COUNT", -1)) == spec["completions"] == spec["parallelism"],
     "tournament-job: COUNT, completions and parallelism must agree")
script = " ".join(c["args"])
need("--shard \"$JOB_COMPLETION_INDEX/$COUNT\"" in script, "tournament-job: --shard from JOB_COMPLETION_INDEX")
need("--resume" in script, "tournament-job: resumes an interrupted shard")

merge = docs["merge-job.yaml"][0]
need(merge["kind"] == "Job", "merge-job: not a Job")
need("sim merge" in " ".join(merge["spec"]["template"]["spec"]["containers"][0]["args"]),
     "merge-job: runs sim merge")

for name, d in (("tournament-job", job), ("merge-job", merge)):
    vols = d["spec"]["template"]["spec"]["volumes"]
    need(any(v.get("persistentVolumeClaim", {}).get("claimName") == claim for v in vols),
         f"{name}: mounts the PVC {claim}")
    mounts = d["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]
    need(any(m["mountPath"] == "/shared" for m in mounts), f"{name}: mounts /shared")

if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"ok: {', '.join(docs)} parse and agree (not run on a cluster)")
