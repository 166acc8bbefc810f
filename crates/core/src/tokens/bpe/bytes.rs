//! Little-endian u32 writing and bounds-checked reading, shared by the binary forms of a loaded
//! tokenizer (`prepared`) and of its SentencePiece symbols (`metaspace`).

pub(super) fn put(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(super) struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, at: 0 }
    }
    /// What is left to read: an upper bound for counts read from the data.
    pub(super) fn left(&self) -> usize {
        self.data.len() - self.at
    }
    pub(super) fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.data.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    pub(super) fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.bytes(4)?.try_into().ok()?))
    }
}
