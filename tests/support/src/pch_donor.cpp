// The target that builds the precompiled header every googletest suite reuses
// (tests/CMakeLists.txt, FROST_TEST_PCH); it is never run.
int main() { return 0; }
