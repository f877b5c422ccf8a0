package org.smartssd.device.protocol;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.smartssd.device.tasklet.InputRange;

/**
 * A seeded, mutation-based generator of hostile byte streams for the device's frame decoder. It
 * starts from the frame vectors ({@code src/test/resources/frames}) and valid requests of every
 * opcode, and changes them as a fuzzer does: bit flips, bytes set to boundary values, bytes inserted
 * and deleted, 2, 4 and 8-byte words set to extremes, the header's payload length set to extremes,
 * truncation, splices of two frames, random opcodes, versions and flags. Several mutations are
 * stacked on one frame; most frames then get their header's length made right again, so that their
 * payload reaches the payload decoder instead of only unframing the stream.
 *
 * <p>A case is what one connection sends: one to {@link #MAX_FRAMES_PER_CASE} frames back to back,
 * and the frame limit the device reading it has. Case {@code i} of seed {@code s} is always the same
 * bytes ({@link #generate}), so that one failing case can be replayed alone.
 */
public final class FrameFuzzer {
  /** Frames in one case at most: enough for a bad frame to be followed by others on its connection. */
  public static final int MAX_FRAMES_PER_CASE = 4;

  /**
   * The frame limits a case is read with: the least the device accepts
   * ({@code smartssd.device.host.max-frame-bytes} must be at least 1024), the tests' small devices'
   * 64 KiB, and the default 64 MiB. Small limits make the limit's own boundaries reachable with the
   * bytes of a real frame.
   */
  public static final int[] FRAME_LIMITS = {1024, 64 << 10, 64 << 20};

  /** Values a fuzzer tries first in a byte: the ends of the ranges, and the UTF-8 lead bytes' edges. */
  private static final byte[] INTERESTING_BYTES = {0, 1, 0x7F, (byte) 0x80, (byte) 0xC0, (byte) 0xC3,
      (byte) 0xED, (byte) 0xF4, (byte) 0xFE, (byte) 0xFF, '/', '.'};

  /** One connection's bytes. */
  public record Case(long seed, long index, byte[] bytes, int frames, int frameLimit) {
    /** How to replay this case alone. */
    public String replay() {
      return "-Dsmartssd.fuzz.seed=" + seed + " -Dsmartssd.fuzz.case=" + index;
    }
  }

  private final List<byte[]> seeds;

  /** A generator over {@link #seeds()}. */
  public FrameFuzzer() {
    this(seeds());
  }

  public FrameFuzzer(List<byte[]> seeds) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("no seed frames");
    }
    this.seeds = List.copyOf(seeds);
  }

  /**
   * The seed frames: every request and response frame vector, then valid requests of every opcode
   * with other values than the vectors' (empty strings and data, a write past the reader's first
   * buffer step, a built-in tasklet, several ranges and options).
   */
  public static List<byte[]> seeds() {
    List<byte[]> all = new ArrayList<>();
    for (FrameVectors.Vector v : FrameVectors.ALL) {
      try (InputStream in = FrameFuzzer.class.getResourceAsStream("/frames/" + v.file())) {
        if (in == null) {
          throw new IllegalStateException("frame vector frames/" + v.file() + " is missing");
        }
        all.add(in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    List<Request> requests = List.of(
        new Request.ApiVersions(),
        new Request.Info(),
        new Request.Statistics(),
        new Request.AuthChallenge(ByteBuffer.allocate(HostSecret.NONCE_BYTES)),
        new Request.Authenticate(ByteBuffer.allocate(HostSecret.PROOF_BYTES)),
        new Request.Mkdirs("/"),
        new Request.Create("/a/b", false, true),
        new Request.Append("/a"),
        new Request.Write(1, ByteBuffer.allocate(0)),
        new Request.Write(2, FrameVectors.sequence(FrameReader.FIRST_STEP_BYTES + 4464)),
        new Request.Flush(0),
        new Request.Sync(-1),
        new Request.Close(1),
        new Request.Open("/a"),
        new Request.Read(1, 0, 0),
        new Request.Read(-1, Long.MAX_VALUE, Integer.MAX_VALUE),
        new Request.GetStatus("/"),
        new Request.ListDir("/", "", 0),
        new Request.Rename("/a", "/b/c"),
        new Request.Delete("/a", false),
        new Request.CreateObject(ByteBuffer.allocate(0),
            "org.smartssd.device.tasklet.builtin.RecordCounter", Map.of("record-bytes", "20")),
        new Request.ExecuteObject(1, List.of(InputRange.whole("/a"), new InputRange("/b", 20, 40),
            new InputRange("/c", 0, 0)), Map.of("merge", "device", "time-limit-ms", "1000", "x", "")),
        new Request.ExecuteObject(1, List.of(), Map.of()),
        new Request.ReadObject(1, 0),
        new Request.Cancel(1),
        new Request.RemoveObject(1));
    long id = 1000;
    for (Request r : requests) {
      all.add(bytes(Messages.requestFrame(ProtocolConstants.CURRENT_VERSION, id++, r)));
    }
    // Version 4: users and permissions.
    List<Request> v4 = List.of(
        new Request.Identify("alice", List.of("analysts", "")),
        new Request.Mkdirs("/a", 01777),
        new Request.Create("/a/b", true, true, 0600),
        new Request.SetPermission("/a", 0),
        new Request.SetOwner("/a", "bob", ""),
        new Request.SetTimes("/a", ProtocolConstants.KEEP_TIME, 0));
    for (Request r : v4) {
      all.add(bytes(Messages.requestFrame(ProtocolConstants.PERMISSIONS_VERSION, id++, r)));
    }
    return all;
  }

  /** Case {@code index} of the run with {@code seed}, for one of {@link #FRAME_LIMITS}: the same bytes every time. */
  public Case generate(long seed, long index) {
    SplittableRandom r = new SplittableRandom(mix(seed, index));
    return generate(seed, index, FRAME_LIMITS[r.nextInt(FRAME_LIMITS.length)], r);
  }

  /** Case {@code index} of the run with {@code seed}, for a device whose frame limit is {@code frameLimit}. */
  public Case generate(long seed, long index, int frameLimit) {
    return generate(seed, index, frameLimit, new SplittableRandom(mix(seed, index)));
  }

  private Case generate(long seed, long index, int limit, SplittableRandom r) {
    int frames = 1 + r.nextInt(MAX_FRAMES_PER_CASE);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < frames; i++) {
      byte[] f = frame(r, limit);
      out.write(f, 0, f.length);
    }
    return new Case(seed, index, out.toByteArray(), frames, limit);
  }

  private byte[] frame(SplittableRandom r, int limit) {
    byte[] f = pick(r).clone();
    if (f.length > 9 && r.nextInt(4) != 0) {
      f[9] &= (byte) ~ProtocolConstants.FLAG_RESPONSE; // a response's payload sent as a request, mostly
    }
    if (r.nextInt(20) == 0) {
      return f; // a valid frame now and then, so that the bad ones around it have neighbours
    }
    boolean lengthTouched = false;
    int mutations = 1 + r.nextInt(4);
    for (int m = 0; m < mutations; m++) {
      switch (r.nextInt(13)) {
        case 0 -> flipBits(r, f);
        case 1 -> setInterestingByte(r, f);
        case 2 -> f = insert(r, f);
        case 3 -> f = delete(r, f);
        case 4 -> setInterestingWord(r, f, limit);
        case 5 -> {
          setPayloadLength(f, extremeLength(r, f, limit));
          lengthTouched = true;
        }
        case 6 -> {
          f = Arrays.copyOf(f, r.nextInt(f.length + 1)); // cut short
          lengthTouched = true;
        }
        case 7 -> f = splice(r, f);
        case 8 -> setU16(f, 6, r.nextInt(4) == 0 ? r.nextInt(0x10000) : knownOpcode(r)); // opcode
        case 9 -> setU16(f, 4, new int[] {0, 1, 2, 0x7FFF, 0xFFFF, r.nextInt(0x10000)}[r.nextInt(6)]); // version
        case 10 -> setU16(f, 8, r.nextInt(4) == 0 ? r.nextInt(0x10000) : r.nextInt(2) << 1); // flags
        case 11 -> f = duplicate(r, f);
        default -> f = randomPayload(r, f);
      }
    }
    if (!lengthTouched && f.length >= ProtocolConstants.HEADER_BYTES && r.nextInt(10) < 7) {
      setPayloadLength(f, f.length - ProtocolConstants.HEADER_BYTES); // well framed: the payload gets decoded
    }
    return f;
  }

  private byte[] pick(SplittableRandom r) {
    return seeds.get(r.nextInt(seeds.size()));
  }

  private static int knownOpcode(SplittableRandom r) {
    Opcode[] all = Opcode.values();
    return all[r.nextInt(all.length)].code();
  }

  private static void flipBits(SplittableRandom r, byte[] f) {
    if (f.length == 0) {
      return;
    }
    int flips = 1 + r.nextInt(8);
    for (int i = 0; i < flips; i++) {
      f[r.nextInt(f.length)] ^= (byte) (1 << r.nextInt(8));
    }
  }

  private static void setInterestingByte(SplittableRandom r, byte[] f) {
    if (f.length > 0) {
      f[r.nextInt(f.length)] = INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)];
    }
  }

  private static byte[] insert(SplittableRandom r, byte[] f) {
    int at = r.nextInt(f.length + 1);
    byte[] extra = new byte[1 + r.nextInt(16)];
    for (int i = 0; i < extra.length; i++) {
      extra[i] = r.nextBoolean() ? (byte) r.nextInt(256) : INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)];
    }
    byte[] out = new byte[f.length + extra.length];
    System.arraycopy(f, 0, out, 0, at);
    System.arraycopy(extra, 0, out, at, extra.length);
    System.arraycopy(f, at, out, at + extra.length, f.length - at);
    return out;
  }

  private static byte[] delete(SplittableRandom r, byte[] f) {
    if (f.length == 0) {
      return f;
    }
    int at = r.nextInt(f.length);
    int n = Math.min(1 + r.nextInt(16), f.length - at);
    byte[] out = new byte[f.length - n];
    System.arraycopy(f, 0, out, 0, at);
    System.arraycopy(f, at + n, out, at, f.length - at - n);
    return out;
  }

  /** A u16, u32 or u64 anywhere (a string's length, a count, a handle) set to a boundary value. */
  private static void setInterestingWord(SplittableRandom r, byte[] f, int limit) {
    int width = new int[] {2, 4, 8}[r.nextInt(3)];
    if (f.length < width) {
      return;
    }
    int at = r.nextInt(f.length - width + 1);
    int rest = f.length - at - width; // what a length here could truthfully announce
    long v = switch (width) {
      case 2 -> new long[] {0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, rest, rest + 1L,
          Math.max(0, rest - 1)}[r.nextInt(12)];
      case 4 -> new long[] {0, 1, 0xFFFF, 0x10000, 0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL, limit, limit + 1L,
          rest, rest + 1L, rest / 4, rest / 18 + 1}[r.nextInt(13)];
      default -> new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 32}[r.nextInt(6)];
    };
    for (int i = width - 1; i >= 0; i--) {
      f[at + i] = (byte) v;
      v >>>= 8;
    }
  }

  /** The header's payload length at an extreme: around the truth, around the limit, the u32's ends. */
  private static long extremeLength(SplittableRandom r, byte[] f, int limit) {
    long actual = Math.max(0, f.length - ProtocolConstants.HEADER_BYTES);
    return new long[] {0, 1, actual - 1, actual + 1, limit - 1L, limit, limit + 1L, 0x7FFF_FFFFL, 0x8000_0000L,
        0xFFFF_FFFFL, r.nextLong(1L << 32), FrameReader.FIRST_STEP_BYTES + 1L}[r.nextInt(12)];
  }

  /** The start of this frame and the end of another. */
  private byte[] splice(SplittableRandom r, byte[] f) {
    byte[] other = pick(r);
    int head = r.nextInt(f.length + 1);
    int from = r.nextInt(other.length + 1);
    byte[] out = Arrays.copyOf(f, head + other.length - from);
    System.arraycopy(other, from, out, head, other.length - from);
    return out;
  }

  /** A chunk repeated in place (a string, a map entry, a range twice). */
  private static byte[] duplicate(SplittableRandom r, byte[] f) {
    if (f.length == 0) {
      return f;
    }
    int at = r.nextInt(f.length);
    int n = 1 + r.nextInt(Math.min(64, f.length - at));
    int times = 1 + r.nextInt(8);
    byte[] out = new byte[f.length + n * times];
    System.arraycopy(f, 0, out, 0, at + n);
    for (int t = 1; t <= times; t++) {
      System.arraycopy(f, at, out, at + n * t, n);
    }
    System.arraycopy(f, at + n, out, at + n * (times + 1), f.length - at - n);
    return out;
  }

  /** The header kept, the payload replaced by random bytes of a random length. */
  private static byte[] randomPayload(SplittableRandom r, byte[] f) {
    int header = Math.min(f.length, ProtocolConstants.HEADER_BYTES);
    byte[] out = Arrays.copyOf(f, header + r.nextInt(256));
    for (int i = header; i < out.length; i++) {
      out[i] = (byte) r.nextInt(256);
    }
    return out;
  }

  private static void setPayloadLength(byte[] f, long length) {
    if (f.length >= 16) {
      ByteBuffer.wrap(f).putInt(12, (int) length);
    }
  }

  private static void setU16(byte[] f, int at, int value) {
    if (f.length >= at + 2) {
      ByteBuffer.wrap(f).putShort(at, (short) value);
    }
  }

  /** A case's random seed from the run's seed and the case's index (SplitMix64's finaliser). */
  static long mix(long seed, long index) {
    long z = seed + 0x9E37_79B9_7F4A_7C15L * (index + 1);
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
