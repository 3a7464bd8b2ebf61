"""Small scenario texts the error tests edit one mistake into (their line numbers count).

Shared so that a test of a mistake's line and column and a test of its exit code read the
same file.
"""

SMALL = """\
name: test
drive:
  arr: 1.9%
  latent_defects_per_hour: 1.08e-4
restore:
  rebuild_hours: 12
  scrub_hours: 168
aggregate:
  data_disks: 42
layouts:
  - raid: raid5
    group_size: 8
"""
"""One RAID 5 layout, 12 lines: the YAML-mistake and every-error tests edit it."""
