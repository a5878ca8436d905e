-- Test-only script that no other process loads, so its absence after SCRIPT FLUSH is certain.
return ARGV[1]
