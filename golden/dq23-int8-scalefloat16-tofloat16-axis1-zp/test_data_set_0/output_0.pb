
ByJฺUÛHx\@QdรฐQ