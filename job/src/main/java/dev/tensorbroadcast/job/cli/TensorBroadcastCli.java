package dev.tensorbroadcast.job.cli;

/** Placeholder entry point until the CLI lands; replaced in this same change. */
public final class TensorBroadcastCli {
    private TensorBroadcastCli() {}

    public static void main(String[] args) {
        System.exit(0);
    }
}
