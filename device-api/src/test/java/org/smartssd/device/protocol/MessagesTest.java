package org.smartssd.device.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.smartssd.device.DeviceEnergy;
import org.smartssd.device.ExecutionStatistics;
import org.smartssd.device.protocol.FrameVectors.Vector;
import org.smartssd.device.tasklet.ExecutionState;
import org.smartssd.device.tasklet.InputRange;
import org.smartssd.device.tasklet.TaskletResult;

/** Whole messages: every malformed payload gives a ProtocolException that says what was wrong. */
class MessagesTest {

  /** Every vector with a non-empty payload, cut short at every length. */
  @TestFactory
  Stream<DynamicTest> everyTruncatedPayloadIsRejected() {
    return FrameVectors.ALL.stream().filter(v -> payloadOf(v).length > 0)
        .map(v -> DynamicTest.dynamicTest(v.file(), () -> {
          byte[] payload = payloadOf(v);
          for (int n = 0; n < payload.length; n++) {
            ByteBuffer cut = ByteBuffer.wrap(payload, 0, n).slice();
            ProtocolException e = assertThrows(ProtocolException.class, () -> decode(v, cut),
                v.file() + " cut to " + n + " bytes");
            assertTrue(e.getMessage().startsWith(v.opcode() + (v.isRequest() ? " request" : " response")),
                e.getMessage());
            assertTrue(e.getMessage().contains("field '"), e.getMessage());
          }
        }));
  }

  @TestFactory
  Stream<DynamicTest> everyPayloadWithATrailingByteIsRejected() {
    return FrameVectors.ALL.stream().map(v -> DynamicTest.dynamicTest(v.file(), () -> {
      byte[] payload = payloadOf(v);
      ByteBuffer longer = ByteBuffer.allocate(payload.length + 1).put(payload).put((byte) 0).flip();
      ProtocolException e = assertThrows(ProtocolException.class, () -> decode(v, longer));
      assertTrue(e.getMessage().contains("1 trailing bytes"), e.getMessage());
    }));
  }

  @Test
  void statisticsCarryDiskUseFromVersion2On() throws ProtocolException {
    Response.Statistics withDiskUse = new Response.Statistics(FrameVectors.STATISTICS_V2);
    PayloadWriter v1 = new PayloadWriter();
    Messages.encodeResponse(1, withDiskUse, v1);
    PayloadWriter v2 = new PayloadWriter();
    Messages.encodeResponse(2, withDiskUse, v2);
    // A version 1 client gets the version 1 layout, without disk use, from a device that has it.
    assertEquals(new Response.Statistics(FrameVectors.STATISTICS),
        Messages.decodeResponse(1, Opcode.STATISTICS, Status.OK, v1.toByteBuffer()));
    assertEquals(withDiskUse, Messages.decodeResponse(2, Opcode.STATISTICS, Status.OK, v2.toByteBuffer()));
    assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(2, Opcode.STATISTICS, Status.OK, v1.toByteBuffer()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Messages.encodeResponse(2, new Response.Statistics(FrameVectors.STATISTICS), new PayloadWriter()));
    assertTrue(e.getMessage().contains("disk use"), e.getMessage());
  }

  @Test
  void statisticsCarryEnergyFromVersion3On() throws ProtocolException {
    Response.Statistics withEnergy = new Response.Statistics(FrameVectors.STATISTICS_V3);
    PayloadWriter v2 = new PayloadWriter();
    Messages.encodeResponse(2, withEnergy, v2);
    PayloadWriter v3 = new PayloadWriter();
    Messages.encodeResponse(3, withEnergy, v3);
    // A version 2 client gets the version 2 layout, without energy, from a device that has it.
    assertEquals(new Response.Statistics(FrameVectors.STATISTICS_V2),
        Messages.decodeResponse(2, Opcode.STATISTICS, Status.OK, v2.toByteBuffer()));
    assertEquals(withEnergy, Messages.decodeResponse(3, Opcode.STATISTICS, Status.OK, v3.toByteBuffer()));
    assertEquals(6 * 8, v3.size() - v2.size(), "six u64s after the disk use");
    assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(3, Opcode.STATISTICS, Status.OK, v2.toByteBuffer()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Messages.encodeResponse(3, new Response.Statistics(FrameVectors.STATISTICS_V2), new PayloadWriter()));
    assertTrue(e.getMessage().contains("energy"), e.getMessage());
  }

  @Test
  void energyAccountsSubtractAndAdd() {
    DeviceEnergy before = new DeviceEnergy(10, 20, 30, 40, 50, 60);
    DeviceEnergy after = new DeviceEnergy(11, 23, 35, 47, 59, 70);
    DeviceEnergy run = after.minus(before);
    assertEquals(new DeviceEnergy(1, 3, 5, 7, 9, 10), run);
    assertEquals(5 + 7 + 9, run.flashNanojoules());
    assertEquals(3 + 5 + 7 + 9 + 10, run.totalNanojoules());
    assertEquals(after, before.plus(run));
    assertEquals(DeviceEnergy.NONE, run.minus(run));
  }

  @Test
  void aReasonNotToReclaimWhileReclaimingIsRejected() {
    PayloadWriter w = new PayloadWriter();
    Messages.encodeResponse(1, new Response.Statistics(FrameVectors.STATISTICS), w);
    ByteBuffer payload = w.bool(true).string("odd").u64(0).u64(0).u64(0).u64(0).u64(0).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(2, Opcode.STATISTICS, Status.OK, payload));
    assertTrue(e.getMessage().contains("diskUse.reclaimNote"), e.getMessage());
  }

  @Test
  void badBoolInARequestIsRejected() {
    ByteBuffer payload = new PayloadWriter().string("/a").u8(1).u8(7).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class, () -> Messages.decodeRequest(Opcode.CREATE, payload));
    assertEquals("CREATE request: field 'createParents': bool must be 0 or 1, was 7", e.getMessage());
  }

  @Test
  void negativeReadLengthIsRejected() {
    ByteBuffer payload = new PayloadWriter().u64(1).u64(0).u32(-1).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class, () -> Messages.decodeRequest(Opcode.READ, payload));
    assertTrue(e.getMessage().contains("'length'") && e.getMessage().contains("negative"), e.getMessage());
  }

  @Test
  void badUtf8PathIsRejected() {
    ByteBuffer payload = ByteBuffer.wrap(new byte[] {0, 2, '/', (byte) 0xFF});
    ProtocolException e = assertThrows(ProtocolException.class, () -> Messages.decodeRequest(Opcode.MKDIRS, payload));
    assertTrue(e.getMessage().startsWith("MKDIRS request: field 'path': not valid UTF-8"), e.getMessage());
  }

  @Test
  void versionRangeUpsideDownIsRejected() {
    ByteBuffer payload = new PayloadWriter().u16(3).u16(2).toByteBuffer();
    assertThrows(ProtocolException.class, () -> Messages.decodeResponse(Opcode.API_VERSIONS, Status.OK, payload));
  }

  @Test
  void duplicateParameterKeyIsRejected() {
    PayloadWriter w = new PayloadWriter().string("d").string("p").geometry(FrameVectors.INFO.geometry())
        .u64(1).u64(1).bool(false).u32(2).string("k").string("1").string("k").string("2");
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.DEVICE_INFO, Status.OK, w.toByteBuffer()));
    assertTrue(e.getMessage().contains("duplicate key k"), e.getMessage());
  }

  @Test
  void anyOpcodeCanCarryAnError() throws ProtocolException {
    ByteBuffer payload = new PayloadWriter().string("no").toByteBuffer();
    for (Opcode op : Opcode.values()) {
      assertEquals(new Response.Error(Status.BUSY, "no"), Messages.decodeResponse(op, Status.BUSY, payload));
    }
  }

  @Test
  void errorResponseWithoutItsMessageIsRejected() {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.OPEN, Status.NOT_FOUND, ByteBuffer.allocate(0)));
    assertTrue(e.getMessage().contains("'message"), e.getMessage());
  }

  @Test
  void responseMustAnswerItsOpcode() {
    Messages.checkAnswers(Opcode.APPEND, new Response.Opened(1, 2, 3));
    Messages.checkAnswers(Opcode.APPEND, new Response.Error(Status.BAD_REQUEST, "x"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Messages.responseFrame(1, 1, Opcode.MKDIRS, new Response.Opened(1, 2, 3), 0));
    assertTrue(e.getMessage().contains("Opened") && e.getMessage().contains("MKDIRS"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Messages.checkAnswers(Opcode.READ, new Response.Length(1)));
  }

  @Test
  void errorWithStatusOkCannotBeBuilt() {
    assertThrows(IllegalArgumentException.class, () -> new Response.Error(Status.OK, "fine"));
  }

  @Test
  void encodingLeavesTheCallersBufferAlone() throws ProtocolException {
    ByteBuffer data = FrameVectors.sequence(10_000);
    data.position(100);
    Request.Write write = new Request.Write(5, data);
    ByteBuffer frame = Messages.requestFrame(1, 9, write);
    assertEquals(100, data.position());
    assertEquals(100, write.data().position());
    FrameHeader header = FrameHeader.readFrom(frame);
    assertEquals(8 + 4 + 9_900, header.payloadLength());
    assertEquals(write, Messages.decodeRequest(Opcode.WRITE, frame));
    assertEquals(ProtocolConstants.HEADER_BYTES, frame.position(), "decoding must not move the payload either");
  }

  @Test
  void recordsHoldingBuffersFixTheirWindowAtConstruction() {
    ByteBuffer data = FrameVectors.sequence(4);
    Response.Data reply = new Response.Data(data);
    data.position(4);
    assertEquals(4, reply.data().remaining());
    assertEquals(new Response.Data(FrameVectors.sequence(4)), reply);
  }

  @Test
  void segmentsAndContiguousFrameHaveTheSameBytes() {
    Request.Write write = new Request.Write(1, FrameVectors.sequence(PayloadWriter.ATTACH_THRESHOLD * 3));
    List<ByteBuffer> segments = Messages.requestFrameSegments(1, 2, write);
    assertTrue(segments.size() > 1);
    ByteBuffer joined = ByteBuffer.allocate(segments.stream().mapToInt(ByteBuffer::remaining).sum());
    segments.forEach(joined::put);
    assertEquals(Messages.requestFrame(1, 2, write), joined.flip());
  }

  @Test
  void responseFrameTakesItsStatusFromTheError() throws ProtocolException {
    ByteBuffer frame = Messages.responseFrame(1, 3, Opcode.READ, new Response.Error(Status.PAST_END, "x"), 0);
    FrameHeader header = FrameHeader.readFrom(frame);
    assertEquals(Status.PAST_END.code(), header.status());
    assertTrue(header.isResponse());
    assertInstanceOf(Response.Error.class, Messages.decodeResponse(Opcode.READ, Status.PAST_END, frame));
    assertFalse(FrameHeader.readFrom(Messages.requestFrame(1, 3, new Request.Info())).isResponse());
  }

  // In-storage processing.

  @Test
  void unknownExecutionStateIsRejected() {
    ByteBuffer payload = progressPayload(4, false);
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.READ_OBJECT, Status.OK, payload));
    assertEquals("READ_OBJECT response: field 'state': unknown execution state 4", e.getMessage());
  }

  @Test
  void everyExecutionStateCodeDecodes() throws ProtocolException {
    for (ExecutionState state : ExecutionState.values()) {
      Response decoded = Messages.decodeResponse(Opcode.READ_OBJECT, Status.OK, progressPayload(state.code(), false));
      assertEquals(state, ((Response.ExecutionProgress) decoded).state());
    }
  }

  @Test
  void finishedWhileRunningIsRejected() throws ProtocolException {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.READ_OBJECT, Status.OK, progressPayload(0, true)));
    assertTrue(e.getMessage().contains("'finished'") && e.getMessage().contains("RUNNING"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Response.ExecutionProgress(
        ExecutionState.RUNNING, "", FrameVectors.STATS_RUNNING, List.of(), true));
    Response decoded = Messages.decodeResponse(Opcode.READ_OBJECT, Status.OK,
        progressPayload(ExecutionState.CANCELLED.code(), true));
    assertTrue(((Response.ExecutionProgress) decoded).finished());
  }

  @Test
  void lanesTravelAsLanePlusOne() throws ProtocolException {
    List<TaskletResult> results = List.of(new TaskletResult(-1, FrameVectors.ascii("m")),
        new TaskletResult(0, FrameVectors.ascii("a")), new TaskletResult(ProtocolConstants.MAX_LANE,
            FrameVectors.ascii("z")));
    Response.ExecutionProgress progress = new Response.ExecutionProgress(
        ExecutionState.RUNNING, "", FrameVectors.STATS_DONE, results, false);
    PayloadWriter w = new PayloadWriter();
    Messages.encodeResponse(progress, w);
    ByteBuffer payload = w.toByteBuffer();
    PayloadReader r = new PayloadReader(payload, "test");
    r.u8("state");
    r.string("message");
    r.executionStatistics("statistics");
    assertEquals(3, r.u32("n"));
    List<Integer> wireLanes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      wireLanes.add(r.u16("lane"));
      r.bytes("data");
    }
    assertEquals(List.of(0, 1, 0xFFFF), wireLanes);
    assertEquals(progress, Messages.decodeResponse(Opcode.READ_OBJECT, Status.OK, payload));
  }

  @Test
  void laneOutsideTheWireRangeCannotBeEncoded() {
    for (int lane : new int[] {-2, ProtocolConstants.MAX_LANE + 1}) {
      Response.ExecutionProgress progress = new Response.ExecutionProgress(ExecutionState.RUNNING, "",
          FrameVectors.STATS_DONE, List.of(new TaskletResult(lane, ByteBuffer.allocate(1))), false);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Messages.responseFrame(1, 1, Opcode.READ_OBJECT, progress, 0));
      assertTrue(e.getMessage().contains("lane " + lane), e.getMessage());
    }
  }

  @Test
  void laneCountOf2To31OrMoreIsRejected() {
    ByteBuffer payload = new PayloadWriter().u8(0).string("").u32(0x8000_0000).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.READ_OBJECT, Status.OK, payload));
    assertTrue(e.getMessage().contains("'statistics.lanes'"), e.getMessage());
    ExecutionStatistics negative = new ExecutionStatistics(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    assertThrows(IllegalArgumentException.class, () -> new PayloadWriter().executionStatistics(negative));
  }

  @Test
  void mapsTravelInKeyOrderWhateverTheirOwnOrder() throws ProtocolException {
    Map<String, String> hashed = new HashMap<>();
    for (int i = 0; i < 50; i++) {
      hashed.put("key-" + (i * 7919 % 50), "v" + i);
    }
    Request.CreateObject fromHash = new Request.CreateObject(ByteBuffer.allocate(0), "C", hashed);
    Request.CreateObject fromTree = new Request.CreateObject(ByteBuffer.allocate(0), "C", new TreeMap<>(hashed));
    assertEquals(Messages.requestFrame(1, 1, fromTree), Messages.requestFrame(1, 1, fromHash));
    assertEquals(new ArrayList<>(new TreeMap<>(hashed).keySet()), new ArrayList<>(fromHash.parameters().keySet()));

    // Received out of order, a map is accepted and kept sorted.
    ByteBuffer payload = new PayloadWriter().bytes(ByteBuffer.allocate(0)).string("C")
        .u32(2).string("b").string("2").string("a").string("1").toByteBuffer();
    Request.CreateObject decoded = (Request.CreateObject) Messages.decodeRequest(Opcode.CREATE_OBJECT, payload);
    assertEquals(List.of("a", "b"), new ArrayList<>(decoded.parameters().keySet()));
    assertThrows(UnsupportedOperationException.class, () -> decoded.parameters().put("c", "3"));
  }

  @Test
  void duplicateKeysInTaskletParametersAndOptionsAreRejected() {
    ByteBuffer create = new PayloadWriter().bytes(ByteBuffer.allocate(0)).string("C")
        .u32(2).string("k").string("1").string("k").string("2").toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeRequest(Opcode.CREATE_OBJECT, create));
    assertEquals("CREATE_OBJECT request: field 'parameters[1].key': duplicate key k", e.getMessage());

    ByteBuffer execute = new PayloadWriter().u64(1).u32(0)
        .u32(2).string("k").string("1").string("k").string("1").toByteBuffer();
    e = assertThrows(ProtocolException.class, () -> Messages.decodeRequest(Opcode.EXECUTE_OBJECT, execute));
    assertEquals("EXECUTE_OBJECT request: field 'options[1].key': duplicate key k", e.getMessage());
  }

  @Test
  void nullMapEntriesCannotBeBuilt() {
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("k", null);
    assertThrows(NullPointerException.class,
        () -> new Request.CreateObject(ByteBuffer.allocate(0), "C", nullValue));
    assertThrows(NullPointerException.class, () -> new Request.ExecuteObject(1, List.of(), nullValue));
  }

  @Test
  void inputRangeOffsetAndLengthMustBeBelow2To63ButToEnd() throws ProtocolException {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeRequest(Opcode.EXECUTE_OBJECT, executePayload(-1, 10)));
    assertTrue(e.getMessage().contains("'inputs[0].offset'"), e.getMessage());
    e = assertThrows(ProtocolException.class,
        () -> Messages.decodeRequest(Opcode.EXECUTE_OBJECT, executePayload(0, -2)));
    assertTrue(e.getMessage().contains("'inputs[0].length'"), e.getMessage());
    Request.ExecuteObject toEnd =
        (Request.ExecuteObject) Messages.decodeRequest(Opcode.EXECUTE_OBJECT, executePayload(5, -1));
    assertEquals(List.of(new InputRange("/a", 5, InputRange.TO_END)), toEnd.inputs());
  }

  @Test
  void negativeMaxResultBytesIsRejected() {
    ByteBuffer payload = new PayloadWriter().u64(1).u32(-1).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeRequest(Opcode.READ_OBJECT, payload));
    assertTrue(e.getMessage().contains("'maxBytes'") && e.getMessage().contains("negative"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Request.ReadObject(1, -1));
  }

  @Test
  void resultCountLargerThanTheRestCanHoldIsRejected() {
    ByteBuffer payload = new PayloadWriter().u8(0).string("").executionStatistics(FrameVectors.STATS_DONE)
        .u32(1000).u16(1).u32(0).toByteBuffer();
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Messages.decodeResponse(Opcode.READ_OBJECT, Status.OK, payload));
    assertTrue(e.getMessage().contains("'results'") && e.getMessage().contains("count 1000"), e.getMessage());
  }

  @Test
  void progressFixesTheWindowsOfItsResults() {
    ByteBuffer data = FrameVectors.sequence(4);
    List<TaskletResult> results = new ArrayList<>(List.of(new TaskletResult(2, data)));
    Response.ExecutionProgress progress =
        new Response.ExecutionProgress(ExecutionState.RUNNING, "", FrameVectors.STATS_DONE, results, false);
    data.position(4);
    results.clear();
    assertEquals(List.of(new TaskletResult(2, FrameVectors.sequence(4))), progress.results());
    assertThrows(UnsupportedOperationException.class, () -> progress.results().clear());
  }

  @Test
  void createObjectCodeIsSentFromItsPosition() throws ProtocolException {
    ByteBuffer jar = FrameVectors.sequence(8);
    jar.position(3);
    Request.CreateObject create = new Request.CreateObject(jar, "C", Map.of());
    ByteBuffer frame = Messages.requestFrame(1, 1, create);
    assertEquals(3, jar.position());
    FrameHeader.readFrom(frame);
    Request.CreateObject decoded = (Request.CreateObject) Messages.decodeRequest(Opcode.CREATE_OBJECT, frame);
    assertEquals(5, decoded.code().remaining());
    assertEquals(create, decoded);
  }

  /** A READ_OBJECT response with this state code and finished flag, no results. */
  private static ByteBuffer progressPayload(int stateCode, boolean finished) {
    return new PayloadWriter().u8(stateCode).string("").executionStatistics(FrameVectors.STATS_RUNNING)
        .u32(0).bool(finished).toByteBuffer();
  }

  /** An EXECUTE_OBJECT request over one range of "/a", no options. */
  private static ByteBuffer executePayload(long offset, long length) {
    return new PayloadWriter().u64(1).u32(1).string("/a").u64(offset).u64(length).u32(0).toByteBuffer();
  }

  private static byte[] payloadOf(Vector v) {
    ByteBuffer frame = v.encode();
    frame.position(ProtocolConstants.HEADER_BYTES);
    byte[] payload = new byte[frame.remaining()];
    frame.get(payload);
    return payload;
  }

  private static Object decode(Vector v, ByteBuffer payload) throws ProtocolException {
    if (v.isRequest()) {
      return Messages.decodeRequest(v.version(), v.opcode(), payload);
    }
    Response expected = (Response) v.message();
    Status status = expected instanceof Response.Error e ? e.status() : Status.OK;
    return Messages.decodeResponse(v.version(), v.opcode(), status, payload);
  }
}
