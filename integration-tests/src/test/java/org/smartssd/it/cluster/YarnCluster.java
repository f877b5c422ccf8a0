package org.smartssd.it.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.event.Dispatcher;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.factory.providers.RecordFactoryProvider;
import org.apache.hadoop.yarn.server.api.ResourceTracker;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.UnRegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.UnRegisterNodeManagerResponse;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdater;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdaterImpl;
import org.apache.hadoop.yarn.server.nodemanager.health.NodeHealthCheckerService;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real YARN cluster in this JVM (a ResourceManager, the job history server, and {@code n} NodeManagers
 * that launch task JVMs and serve the shuffle) in which node {@code i} has a host of its own, so that a
 * split's location can name one node and YARN's data-local counter can tell nodes apart.
 *
 * <p>{@link org.apache.hadoop.yarn.server.MiniYARNCluster} gives every NodeManager it makes the address
 * {@code MiniYARNCluster.getHostname() + ":0"}, i.e. "localhost" (its private NodeManagerWrapper sets
 * {@code yarn.nodemanager.address} so, whatever the configuration says), so all its nodes share one host. This fixture
 * therefore starts {@link MiniMRYarnCluster} with no NodeManager and starts its own: node {@code i}
 * listens on loopback address {@code 127.0.0.(i+2)}, and its node id's host, which the ResourceManager
 * schedules by and the MapReduce application master matches split hosts against, is that address's
 * canonical name ({@code ContainerManagerImpl.buildNodeId}). Needs a system that routes all of
 * {@code 127.0.0.0/8} to loopback (Linux does).
 *
 * <p>The ResourceManager runs the FairScheduler, whose locality delay is measured in time, so that a map
 * runs on its split's node even when that node is a heartbeat late (see {@link #clusterConf}).
 */
public final class YarnCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(YarnCluster.class);

  /** The most nodes: their addresses are 127.0.0.2 to 127.0.0.(MAX_NODES+1). */
  public static final int MAX_NODES = 16;

  /** Memory a NodeManager offers, in MB; only the scheduler counts it (no memory check runs). */
  static final int NODE_MEMORY_MB = 2048;

  /** The ResourceManager declares a node LOST after this long without a heartbeat. */
  static final int NODE_EXPIRY_MS = 4000;

  private static final long START_TIMEOUT_MS = 60_000;

  private final MiniMRYarnCluster cluster;
  private final Path workDir;
  private final List<Node> nodes = new ArrayList<>();
  private final List<String> hosts = new ArrayList<>();

  private YarnCluster(MiniMRYarnCluster cluster, Path workDir) {
    this.cluster = cluster;
    this.workDir = workDir;
  }

  /**
   * Starts a cluster of {@code nodeCount} NodeManagers and returns when all of them run in the
   * ResourceManager's view.
   *
   * @param workDir where the NodeManagers keep their local and log directories (the job staging area
   *     and history live where MiniMRYarnCluster puts them, under {@code target/test/data}, until
   *     {@link #close})
   */
  public static YarnCluster start(int nodeCount, Path workDir) throws IOException {
    if (nodeCount < 1 || nodeCount > MAX_NODES) {
      throw new IllegalArgumentException("node count must be 1 to " + MAX_NODES + ", was " + nodeCount);
    }
    MiniMRYarnCluster mini = new MiniMRYarnCluster("smartssd-yarn", 0);
    YarnCluster yarn = new YarnCluster(mini, workDir);
    boolean started = false;
    try {
      mini.init(clusterConf());
      mini.start();
      for (int i = 0; i < nodeCount; i++) {
        yarn.startNode(i);
      }
      yarn.awaitNodesRunning();
      started = true;
      LOG.info("YARN cluster runs nodes {}", yarn.hosts);
      return yarn;
    } finally {
      if (!started) {
        yarn.close();
      }
    }
  }

  /** The ResourceManager's and the jobs' settings. */
  private static Configuration clusterConf() {
    Configuration conf = new YarnConfiguration();
    // Containers are not policed: the JVMs' -Xmx below bound them. Virtual memory of a JVM is far
    // above its heap and would get containers killed if checked.
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, NODE_MEMORY_MB);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    // The FairScheduler rounds every request up to a multiple of this (1024 MB by default, which made
    // 256 MB maps take 1 GB and left a node room for fewer maps than it was meant to run at once).
    conf.set("yarn.resource-types.memory-mb.increment-allocation", "128");
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, NODE_MEMORY_MB);
    // Locality: a map must wait for the node its split names. YARN's count-based delay scheduling gives
    // up waiting after at most one missed scheduling opportunity per node of the cluster
    // (CapacityScheduler: node-locality-delay, capped in RegularContainerAllocator
    // .getActualNodeLocalityDelay; FairScheduler: locality.threshold.node, capped at 1.0), i.e. after 4
    // misses on 3 nodes, and the CapacityScheduler's asynchronous scheduling (on by default in 3.5.0)
    // makes an opportunity of every node every 5 ms. Measured here with the CapacityScheduler: 5 of 6
    // maps data-local in each of three runs with node-locality-delay 40, 2 of 6 with the
    // capacity-scheduler.xml that hadoop-yarn-server-tests' jar puts on the class path (delay -1).
    // The one delay YARN measures in time is the FairScheduler's under continuous scheduling
    // (FSAppAttempt.getAllowedLocalityLevelByTime; deprecated for clusters of hundreds of nodes): maps
    // may leave their nodes only once 5 s (ten heartbeats) passed without a container for any of them.
    // A split naming a host that is not a running node therefore delays its job by about 5 s.
    conf.set(YarnConfiguration.RM_SCHEDULER, FairScheduler.class.getName());
    conf.setBoolean("yarn.scheduler.fair.continuous-scheduling-enabled", true);
    conf.setLong("yarn.scheduler.fair.locality-delay-node-ms", 5000);
    // All nodes share one rack: once a map may leave its node, any node will do. (Negative values here
    // would turn the delay off altogether.)
    conf.setLong("yarn.scheduler.fair.locality-delay-rack-ms", 0);
    // Jobs go to queue root.default; by default the FairScheduler makes a queue per user, and a job of
    // user "root" is refused ("root is not a leaf queue").
    conf.setBoolean("yarn.scheduler.fair.user-as-default-queue", false);
    // Node heartbeats every 500 ms instead of 1 s: finished containers are reported, and their room
    // offered again, sooner.
    conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 500);
    // A node silent for this long is LOST (checked every third of it, by NMLivelinessMonitor): a
    // lost node is noticed within about 5.5 s, yet eight missed heartbeats are needed.
    conf.setInt(YarnConfiguration.RM_NM_EXPIRY_INTERVAL_MS, NODE_EXPIRY_MS);
    // The application master asks for and receives containers on its heartbeat to the ResourceManager.
    conf.setInt(MRJobConfig.MR_AM_TO_RM_HEARTBEAT_INTERVAL_MS, 200);
    // Killing an attempt on a lost node makes the application master call that node to stop the
    // container; by default it retries for 3 minutes, 10 s apart, before the attempt counts as killed.
    conf.setLong(YarnConfiguration.CLIENT_NM_CONNECT_MAX_WAIT_MS, 2000);
    conf.setLong(YarnConfiguration.CLIENT_NM_CONNECT_RETRY_INTERVAL_MS, 500);
    // Small containers and heaps so that 3 nodes' task JVMs fit this machine; C1 only, one GC thread:
    // these JVMs live seconds, and startup time dominates on 2 cores.
    String jvm = " -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    conf.setInt(MRJobConfig.MR_AM_VMEM_MB, 512);
    conf.set(MRJobConfig.MR_AM_COMMAND_OPTS, "-Xmx320m" + jvm);
    conf.setInt(MRJobConfig.MAP_MEMORY_MB, 256);
    conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx192m" + jvm);
    conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, 256);
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx192m" + jvm);
    // The map output sort buffer (100 MB by default) must fit those heaps with room to spare; the
    // tests' maps emit little.
    conf.setInt(MRJobConfig.IO_SORT_MB, 32);
    // Stop quickly (as in examples' DeviceModeOnMiniYarnTest): short waits for a killed container's
    // process, and container logs deleted at once so that the log handler does not wait 10 s for them.
    conf.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
    conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 500);
    conf.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 0);
    return conf;
  }

  private void startNode(int index) throws IOException {
    String address = "127.0.0." + (index + 2);
    // Settings of this node only, over the started cluster's (its ResourceManager's real addresses,
    // the shuffle service that MiniMRYarnCluster configured).
    Configuration conf = new YarnConfiguration(cluster.getConfig());
    Path dir = workDir.resolve("node-" + index).toAbsolutePath();
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
    conf.set(YarnConfiguration.NM_LOG_DIRS, dir.resolve("log").toString());
    // The container manager's bind address gives the node id: its host is this address's name.
    conf.set(YarnConfiguration.NM_ADDRESS, address + ":0");
    conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, address + ":0");
    conf.set(YarnConfiguration.NM_WEBAPP_ADDRESS, address + ":0");
    // As MiniYARNCluster does: no probing of this machine's resources, no container monitor.
    conf.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
    conf.setBoolean(YarnConfiguration.NM_CONTAINER_MONITOR_ENABLED, false);
    conf.setLong(YarnConfiguration.NM_RESOURCE_MON_INTERVAL_MS, 0);
    Node node = new Node();
    nodes.add(node);
    node.init(conf);
    // The web server is not needed (the node's http address is only reported, and its host is the
    // node id's); leaving it out saves a Jetty start per node.
    node.disableWebServer();
    node.start();
    if (node.getServiceState() != Service.STATE.STARTED) {
      throw new IOException("NodeManager " + index + " on " + address + " did not start", node.getFailureCause());
    }
    String host = node.getNMContext().getNodeId().getHost();
    if (hosts.contains(host)) {
      throw new IllegalStateException("NodeManager " + index + " bound to " + address + " got host name " + host
          + ", the same as node " + hosts.indexOf(host) + ": this system resolves both addresses to one name");
    }
    hosts.add(host);
  }

  private void awaitNodesRunning() throws IOException {
    await("all " + nodes.size() + " NodeManagers running", START_TIMEOUT_MS, () -> {
      for (int i = 0; i < nodes.size(); i++) {
        if (stateOf(i) != NodeState.RUNNING) {
          return false;
        }
      }
      return true;
    });
  }

  /** How many NodeManagers were started (lost ones included). */
  public int nodeCount() {
    return nodes.size();
  }

  /** Node {@code i}'s host as YARN knows it (its node id's host): what a split's location names. */
  public String nodeHost(int i) {
    checkIndex(i);
    return hosts.get(i);
  }

  /** The index of the node with that host, or -1. */
  public int nodeIndex(String host) {
    return hosts.indexOf(host);
  }

  /** Node {@code i}'s state in the ResourceManager's view (null before it registered). */
  public NodeState nodeState(int i) {
    return stateOf(checkIndex(i));
  }

  /** A copy of the cluster's configuration, for submitting jobs to it. */
  public Configuration jobConf() {
    Configuration conf = new Configuration(cluster.getConfig());
    // The client polls for completion every 5 s by default, adding up to 5 s to each job.
    conf.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 50);
    return ClusterDevices.withSecret(conf);
  }

  /**
   * The index of the node that runs a job's MapReduce application master, or -1 while it has none.
   */
  public int applicationMasterNode(JobID job) {
    ApplicationId app = TypeConverter.toYarn(job).getAppId();
    RMApp rmApp = resourceManager().getRMContext().getRMApps().get(app);
    RMAppAttempt attempt = rmApp == null ? null : rmApp.getCurrentAppAttempt();
    Container master = attempt == null ? null : attempt.getMasterContainer();
    return master == null ? -1 : nodeIndex(master.getNodeId().getHost());
  }

  /**
   * Loses node {@code i}: its NodeManager stops (killing its containers, task JVMs and the map output
   * it served) without telling the ResourceManager, which hears no more heartbeats and declares the
   * node LOST after {@link #NODE_EXPIRY_MS}. Returns once the node is LOST. Running MapReduce
   * application masters hear of it on their next heartbeat: they re-run the node's running maps and,
   * while their job's reducers are not all done, its finished maps too. If the node ran a job's
   * application master, that attempt is over and the ResourceManager starts another if the job has
   * attempts left ({@code mapreduce.am.max-attempts}); see {@link #applicationMasterNode}.
   */
  public void loseNodeManager(int i) throws IOException {
    Node node = nodes.get(checkIndex(i));
    if (node.lost.getAndSet(true)) {
      throw new IllegalStateException("node " + i + " (" + hosts.get(i) + ") was already lost");
    }
    LOG.info("Losing node {} ({})", i, hosts.get(i));
    node.stop();
    await("node " + i + " (" + hosts.get(i) + ") declared LOST", 3L * NODE_EXPIRY_MS + 10_000,
        () -> stateOf(i) == NodeState.LOST);
  }

  private NodeState stateOf(int i) {
    NodeId id = nodes.get(i).getNMContext().getNodeId();
    if (id == null) {
      return null;
    }
    RMNode rmNode = resourceManager().getRMContext().getRMNodes().get(id);
    if (rmNode == null) {
      rmNode = resourceManager().getRMContext().getInactiveRMNodes().get(id);
    }
    return rmNode == null ? null : rmNode.getState();
  }

  private ResourceManager resourceManager() {
    return cluster.getResourceManager();
  }

  private int checkIndex(int i) {
    if (i < 0 || i >= nodes.size()) {
      throw new IndexOutOfBoundsException("node " + i + " of " + nodes.size());
    }
    return i;
  }

  private static void await(String what, long timeoutMs, BooleanSupplier condition) throws IOException {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("timed out after " + timeoutMs + " ms waiting for " + what);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for " + what, e);
      }
    }
  }

  /**
   * Stops the NodeManagers still running, then the ResourceManager and the history server, and deletes
   * MiniMRYarnCluster's directory (job staging area and history).
   */
  @Override
  public void close() {
    try {
      for (Node node : nodes) {
        try {
          node.stop();
        } catch (RuntimeException e) {
          LOG.warn("A NodeManager did not stop cleanly", e);
        }
      }
    } finally {
      cluster.stop();
      FileUtil.fullyDelete(cluster.getTestWorkDir());
    }
  }

  /** A NodeManager that, once lost, stops without unregistering from the ResourceManager. */
  private static final class Node extends NodeManager {
    final AtomicBoolean lost = new AtomicBoolean();

    @Override
    protected void doSecureLogin() {
      // No Kerberos here (as in MiniYARNCluster).
    }

    @Override
    protected NodeStatusUpdater createNodeStatusUpdater(Context context, Dispatcher dispatcher,
        NodeHealthCheckerService healthChecker) {
      return new NodeStatusUpdaterImpl(context, dispatcher, healthChecker, metrics) {
        @Override
        protected ResourceTracker getRMClient() throws IOException {
          return new LosableTracker(super.getRMClient(), lost);
        }
      };
    }
  }

  /** The ResourceManager's tracker as a node sees it; a lost node's goodbye does not reach it. */
  private static final class LosableTracker implements ResourceTracker, Closeable {
    private final ResourceTracker rm;
    private final AtomicBoolean lost;

    LosableTracker(ResourceTracker rm, AtomicBoolean lost) {
      this.rm = rm;
      this.lost = lost;
    }

    @Override
    public RegisterNodeManagerResponse registerNodeManager(RegisterNodeManagerRequest request)
        throws YarnException, IOException {
      return rm.registerNodeManager(request);
    }

    @Override
    public NodeHeartbeatResponse nodeHeartbeat(NodeHeartbeatRequest request) throws YarnException, IOException {
      return rm.nodeHeartbeat(request);
    }

    @Override
    public UnRegisterNodeManagerResponse unRegisterNodeManager(UnRegisterNodeManagerRequest request)
        throws YarnException, IOException {
      if (lost.get()) {
        return RecordFactoryProvider.getRecordFactory(null).newRecordInstance(UnRegisterNodeManagerResponse.class);
      }
      return rm.unRegisterNodeManager(request);
    }

    @Override
    public void close() {
      RPC.stopProxy(rm);
    }
  }
}
