//! A small ZIP archive writer: stored entries (no compression), fixed timestamps, so
//! the same files always give the same bytes. Enough for the archives judges import.

use super::error::GradingError;

/// Bytes of the CRC-32 (IEEE) table, built at compile time.
const CRC_TABLE: [u32; 256] = crc_table();

/// The CRC-32 table of the reflected polynomial 0xEDB88320.
const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

/// The CRC-32 of `bytes`, as ZIP files store it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        let i = ((c ^ u32::from(b)) & 0xff) as usize;
        c = CRC_TABLE.get(i).copied().unwrap_or(0) ^ (c >> 8);
    }
    !c
}

/// The MS-DOS date of 1980-01-01, the earliest a ZIP file can hold.
const DOS_DATE: u16 = (1 << 5) | 1;

/// A ZIP archive of `entries` (path inside the archive with `/` separators, content),
/// in the order given.
/// Pre: none. Post: `Err` when the archive would pass the plain ZIP format's limits
/// (65,535 entries, 4 GiB).
pub(crate) fn archive(entries: &[(String, Vec<u8>)]) -> Result<Vec<u8>, GradingError> {
    let too_big = || GradingError::ArchiveTooLarge;
    let count = u16::try_from(entries.len()).map_err(|_| too_big())?;
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data) in entries {
        let offset = u32::try_from(out.len()).map_err(|_| too_big())?;
        let size = u32::try_from(data.len()).map_err(|_| too_big())?;
        let name_len = u16::try_from(name.len()).map_err(|_| too_big())?;
        let crc = crc32(data);
        // Local file header: version 2.0, UTF-8 names (flag bit 11), stored.
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        for v in [20u16, 0x0800, 0, 0, DOS_DATE] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&name_len.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        // Central directory entry: made by Unix, a regular file of mode 0644.
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        for v in [(3u16 << 8) | 20, 20, 0x0800, 0, 0, DOS_DATE] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        for v in [name_len, 0, 0, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        central.extend_from_slice(&(0o100_644u32 << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let central_offset = u32::try_from(out.len()).map_err(|_| too_big())?;
    let central_size = u32::try_from(central.len()).map_err(|_| too_big())?;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    for v in [0u16, 0, count, count] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&central_size.to_le_bytes());
    out.extend_from_slice(&central_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn archives_are_laid_out_as_the_format_says() {
        let entries = vec![("a.txt".to_string(), b"hello\n".to_vec()), ("d/b.txt".to_string(), Vec::new())];
        let zip = archive(&entries).unwrap();
        assert_eq!(zip.get(..4), Some(&b"PK\x03\x04"[..]));
        let end = zip.len() - 22;
        assert_eq!(zip.get(end..end + 4), Some(&b"PK\x05\x06"[..]));
        assert_eq!(zip.get(end + 10..end + 12), Some(&[2u8, 0][..]));
        let name = zip.get(30..35).unwrap();
        assert_eq!(name, b"a.txt");
        assert_eq!(zip.get(35..41), Some(&b"hello\n"[..]));
        assert_eq!(archive(&entries).unwrap(), zip);
    }
}
