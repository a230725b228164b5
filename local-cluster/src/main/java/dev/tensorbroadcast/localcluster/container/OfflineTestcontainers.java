package dev.tensorbroadcast.localcluster.container;

/**
 * Testcontainers pulls images of its own unless told not to: Ryuk (its reaper), a small image for its start-up checks,
 * and, when this JVM itself runs in a container, the same small image to find the Docker host's gateway. Clusters
 * never pull, so all three must be switched off by environment (Testcontainers reads the Ryuk switch from the
 * environment only). The cluster removes what it starts by itself, and never reaches the Docker host through mapped
 * ports, so the host override has no other effect.
 */
final class OfflineTestcontainers {
    static final String RYUK_DISABLED = "TESTCONTAINERS_RYUK_DISABLED";
    static final String CHECKS_DISABLE = "TESTCONTAINERS_CHECKS_DISABLE";
    static final String HOST_OVERRIDE = "TESTCONTAINERS_HOST_OVERRIDE";

    private OfflineTestcontainers() {}

    static void require() {
        String hostOverride = System.getenv(HOST_OVERRIDE);
        if (!"true".equalsIgnoreCase(System.getenv(RYUK_DISABLED))
                || !"true".equalsIgnoreCase(System.getenv(CHECKS_DISABLE))
                || hostOverride == null
                || hostOverride.isBlank()) {
            throw new IllegalStateException("Cannot use Docker for a container cluster: set " + RYUK_DISABLED
                    + "=true, " + CHECKS_DISABLE + "=true and " + HOST_OVERRIDE + "=localhost in the environment,"
                    + " or Testcontainers pulls images from a registry (clusters never pull)");
        }
    }
}
