"""Balance verdicts: two cohorts of one game compared with intervals and tests."""
