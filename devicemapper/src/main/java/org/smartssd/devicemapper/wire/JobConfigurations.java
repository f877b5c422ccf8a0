package org.smartssd.devicemapper.wire;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;

/**
 * How the job's configuration reaches the device in two parts, so that what changes from job to
 * job is small: the host's defaults (what {@code new JobConf()} holds there: Hadoop's default and
 * site files) as an entry of the tasklet's jar, identical for every job of that host, so the device
 * keeps the jar and the host does not send it again ({@link org.smartssd.device.protocol.CodeDigest});
 * and the job's differences from them (keys set to other values, keys unset) as a compressed
 * tasklet parameter. Both sides see the same raw (unexpanded) values the job has.
 *
 * <p>Runs on both sides: on the device it uses only the JDK and Hadoop's shared classes.
 */
public final class JobConfigurations {
  /** The jar entry holding the host's defaults. */
  public static final String DEFAULTS_ENTRY = "META-INF/smartssd/default-configuration";

  private JobConfigurations() {}

  /** Every raw entry of the configuration, sorted by key. */
  public static TreeMap<String, String> entries(Configuration conf) {
    TreeMap<String, String> entries = new TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      entries.put(e.getKey(), e.getValue());
    }
    return entries;
  }

  /** The defaults' bytes: the same bytes for the same entries. */
  public static byte[] encodeDefaults(Map<String, String> defaults) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes))) {
      writeEntries(out, defaults);
    }
    return bytes.toByteArray();
  }

  /** The job's differences from the defaults, as text for a tasklet parameter. */
  public static String encodeDifferences(Map<String, String> job, Map<String, String> defaults) throws IOException {
    TreeMap<String, String> changed = new TreeMap<>();
    for (Map.Entry<String, String> e : job.entrySet()) {
      if (!Objects.equals(defaults.get(e.getKey()), e.getValue())) {
        changed.put(e.getKey(), e.getValue());
      }
    }
    List<String> unset = new ArrayList<>();
    for (String key : defaults.keySet()) {
      if (!job.containsKey(key)) {
        unset.add(key);
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes))) {
      writeEntries(out, changed);
      out.writeInt(unset.size());
      for (String key : unset) {
        writeString(out, key);
      }
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  /**
   * The most characters of one tasklet parameter holding (part of) the differences: the protocol's
   * string field holds 65,535 bytes of UTF-8, and the differences are Base64, one byte a character.
   */
  public static final int PART_CHARS = 65_000;

  /**
   * Puts the encoded differences into a tasklet's parameters: as {@code name} when they fit in one
   * parameter; else cut into parts of {@link #PART_CHARS}, {@code name}, {@code name.1}, ... , with
   * {@code name.parts} saying how many (a job whose configuration carries a large value, such as an
   * Apriori pass's candidates).
   */
  public static void putDifferences(Map<String, String> parameters, String name, String encoded) {
    if (encoded.length() <= PART_CHARS) {
      parameters.put(name, encoded);
      return;
    }
    int parts = (encoded.length() + PART_CHARS - 1) / PART_CHARS;
    for (int i = 0; i < parts; i++) {
      String part = encoded.substring(i * PART_CHARS, Math.min(encoded.length(), (i + 1) * PART_CHARS));
      parameters.put(i == 0 ? name : name + "." + i, part);
    }
    parameters.put(name + ".parts", Integer.toString(parts));
  }

  /**
   * The encoded differences from a tasklet's parameters ({@link #putDifferences}).
   *
   * @throws IOException naming the parameter that is missing or malformed
   */
  public static String getDifferences(Map<String, String> parameters, String name) throws IOException {
    String first = parameters.get(name);
    if (first == null) {
      throw new IOException("parameter " + name + " is missing");
    }
    String count = parameters.get(name + ".parts");
    if (count == null) {
      return first;
    }
    int parts;
    try {
      parts = Integer.parseInt(count);
    } catch (NumberFormatException e) {
      throw new IOException("parameter " + name + ".parts is not a number: '" + count + "'");
    }
    if (parts < 1 || parts > 65_536) {
      throw new IOException("parameter " + name + ".parts must be between 1 and 65536, not " + parts);
    }
    StringBuilder sb = new StringBuilder(first);
    for (int i = 1; i < parts; i++) {
      String part = parameters.get(name + "." + i);
      if (part == null) {
        throw new IOException("parameter " + name + "." + i + " is missing (" + name + ".parts is " + parts + ")");
      }
      sb.append(part);
    }
    return sb.toString();
  }

  /** The job's configuration again: the defaults, then the differences. */
  public static JobConf decode(byte[] defaults, String differences) throws IOException {
    JobConf conf = new JobConf(false);
    try (DataInputStream in = new DataInputStream(new InflaterInputStream(new ByteArrayInputStream(defaults)))) {
      readEntries(in, conf);
    }
    byte[] diff;
    try {
      diff = Base64.getDecoder().decode(differences);
    } catch (IllegalArgumentException e) {
      throw new IOException("the job configuration parameter is not Base64: " + e.getMessage(), e);
    }
    try (DataInputStream in = new DataInputStream(new InflaterInputStream(new ByteArrayInputStream(diff)))) {
      readEntries(in, conf);
      int unset = in.readInt();
      for (int i = 0; i < unset; i++) {
        conf.unset(readString(in));
      }
    }
    return conf;
  }

  private static void writeEntries(DataOutputStream out, Map<String, String> entries) throws IOException {
    out.writeInt(entries.size());
    for (Map.Entry<String, String> e : entries.entrySet()) {
      writeString(out, e.getKey());
      writeString(out, e.getValue());
    }
  }

  private static void readEntries(DataInputStream in, Configuration conf) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      throw new IOException("a job configuration with " + n + " entries");
    }
    for (int i = 0; i < n; i++) {
      conf.set(readString(in), readString(in));
    }
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readString(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > (64 << 20)) {
      throw new IOException("a job configuration string of " + n + " bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }
}
