/* Tests of pipeline/gemath (GE-HARDWARE.md sections 1-4). */
