package org.smartssd.devicemapper.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InputSpecTest {

  @Test
  void everySpecSurvivesItsEncoding() {
    for (InputSpec spec : new InputSpec[] {InputSpec.fixedLength(20), InputSpec.lines(), InputSpec.delimited((byte) 0),
        InputSpec.delimited((byte) 0xff), InputSpec.text("|"),
        InputSpec.fixedLength(20).compressed(InputSpec.Compression.GZIP),
        InputSpec.keyValue((byte) 9).compressed(InputSpec.Compression.GZIP), InputSpec.sequence(),
        InputSpec.lines().compressed(InputSpec.Compression.DEFLATE)}) {
      assertThat(InputSpec.parse(spec.encode())).isEqualTo(spec);
    }
    assertThat(InputSpec.text(null)).isEqualTo(InputSpec.lines());
    assertThat(InputSpec.fixedLength(20).encode()).isEqualTo("fixed-length:20");
    assertThat(InputSpec.text("\t").encode()).isEqualTo("delimited:9");
    assertThat(InputSpec.lines().compressed(InputSpec.Compression.GZIP).encode()).isEqualTo("gzip+lines");
    assertThat(InputSpec.fixedLength(20).compressed(InputSpec.Compression.DEFLATE).encode())
        .isEqualTo("deflate+fixed-length:20");
  }

  @Test
  void badSpecsAreNamed() {
    assertThatThrownBy(() -> InputSpec.parse("text")).hasMessageContaining("unknown input spec 'text'");
    assertThatThrownBy(() -> InputSpec.parse("fixed-length:x")).hasMessageContaining("'x' is not a number");
    assertThatThrownBy(() -> InputSpec.parse("fixed-length:0")).hasMessageContaining("greater than zero");
    assertThatThrownBy(() -> InputSpec.parse("delimited:256")).hasMessageContaining("not a byte");
    assertThatThrownBy(() -> InputSpec.parse(null)).hasMessageContaining("missing");
    assertThatThrownBy(() -> InputSpec.parse("gzip+gzip+lines")).hasMessageContaining("compressed twice");
    assertThatThrownBy(() -> InputSpec.parse("gzip+text")).hasMessageContaining("unknown input spec 'text'");
    assertThatThrownBy(() -> InputSpec.parse("gzip+sequence")).hasMessageContaining("not through a codec");
    assertThatThrownBy(() -> InputSpec.text("\r\n")).hasMessageContaining("one byte");
  }
}
