package seed

// Version names what the seeder makes: the bench's seed cache keeps a
// history under a key with it (loadbench_seed_test.go), so a history
// seeded by another version is not used. Bump it with every change to
// what is seeded (rows, files, their content or amount), not for a
// change that only makes the seeding faster.
//
// 2: the history's nightly TARs are filed by the seeder, not by the
// archive job (same rows and files).
const Version = 2
