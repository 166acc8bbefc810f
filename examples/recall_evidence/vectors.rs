//! Sentence vectors of every text the bench needs, by our encoder natively, kept in a cache
//! file so that a rerun embeds nothing again (the same model file gives the same vectors).

use llm_memory::ner::EmbedModel;
use llm_memory::tokens::fnv1a;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

pub struct Vectors {
    map: HashMap<u64, Vec<f32>>,
    dim: usize,
}

fn key(text: &str) -> u64 {
    fnv1a(&[text.as_bytes()])
}

impl Vectors {
    /// Loads `cache`, embeds what it lacks of `texts` with `model` (both cores), saves it.
    pub fn build(model: &EmbedModel, texts: &[&str], cache: &Path) -> Vectors {
        let dim = model.dimensions();
        let mut map = read(cache, dim);
        let mut todo: Vec<&str> = texts
            .iter()
            .copied()
            .filter(|t| !map.contains_key(&key(t)))
            .collect();
        todo.sort_unstable();
        todo.dedup();
        if !todo.is_empty() {
            eprintln!(
                "embedding {} texts (cached in {})",
                todo.len(),
                cache.display()
            );
            let start = std::time::Instant::now();
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            let per = todo.len().div_ceil(threads);
            let done: Vec<Vec<(u64, Vec<f32>)>> = std::thread::scope(|s| {
                let handles: Vec<_> = todo
                    .chunks(per)
                    .map(|chunk| {
                        s.spawn(move || {
                            chunk
                                .iter()
                                .map(|t| (key(t), model.embed_text(t)))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            for (k, v) in done.into_iter().flatten() {
                map.insert(k, v);
            }
            eprintln!("embedded in {:.0} s", start.elapsed().as_secs_f64());
            write(cache, &map);
        }
        Vectors { map, dim }
    }

    pub fn get(&self, text: &str) -> Vec<f32> {
        self.map
            .get(&key(text))
            .cloned()
            .unwrap_or_else(|| vec![0.0; self.dim])
    }
}

fn read(path: &Path, dim: usize) -> HashMap<u64, Vec<f32>> {
    let mut map = HashMap::new();
    let Ok(bytes) = std::fs::read(path) else {
        return map;
    };
    let rec = 8 + dim * 4;
    for r in bytes.chunks_exact(rec) {
        let k = u64::from_le_bytes(r[..8].try_into().unwrap());
        let v = r[8..]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        map.insert(k, v);
    }
    map
}

fn write(path: &Path, map: &HashMap<u64, Vec<f32>>) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let mut out = Vec::new();
    for (k, v) in map {
        out.extend_from_slice(&k.to_le_bytes());
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let tmp = path.with_extension("tmp");
    if let Ok(mut f) = std::fs::File::create(&tmp) {
        if f.write_all(&out).is_ok() {
            let _ = std::fs::rename(&tmp, path);
        }
    }
}
