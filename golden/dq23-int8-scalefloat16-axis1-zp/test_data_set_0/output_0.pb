
ByJäQÕF ?«WãEÐA