package io.kuberaysim.scenario;

import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.sim.SimulatedCluster;

/**
 * What a scenario runs against: the API (through an in-process client), the virtual clock that drives the control
 * plane, and the simulated cluster (for faults that reach into it, such as failing a Ray job).
 */
public record ScenarioTarget(KubeClient client, VirtualClock clock, SimulatedCluster cluster) {
}
