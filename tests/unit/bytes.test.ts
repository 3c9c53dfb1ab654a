import { describe, expect, it } from "vitest";
import { formatBytes } from "@/lib/bytes";

const GB = 2 ** 30;

describe("formatBytes", () => {
  it("says nothing used as 0 B, and bytes as they are", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(-5)).toBe("0 B");
    expect(formatBytes(Number.NaN)).toBe("0 B");
    expect(formatBytes(1)).toBe("1 B");
    expect(formatBytes(1023)).toBe("1,023 B");
  });

  it("uses binary units like the gateway's quotas, one decimal below 10", () => {
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(512 * 2 ** 20)).toBe("512 MB");
    expect(formatBytes(1.2 * GB)).toBe("1.2 GB");
    expect(formatBytes(GB)).toBe("1 GB");
    expect(formatBytes(10 * GB)).toBe("10 GB");
    expect(formatBytes(9.97 * GB)).toBe("10 GB");
    expect(formatBytes(1_000_000 * GB)).toBe("977 TB");
    expect(formatBytes(5 * 2 ** 50)).toBe("5 PB");
    expect(formatBytes(2000 * 2 ** 50)).toBe("2,000 PB");
  });

  it("never prints 1024 of a unit: it steps up instead", () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe("1 MB");
    expect(formatBytes(GB - 1)).toBe("1 GB");
  });
});
