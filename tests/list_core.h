/* Tests of the foundation: memory, command processor, dumps, CLI. */
