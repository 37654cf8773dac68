# Plain numpy reference semantics of the ONNX ops the smoke suite covers, written out from the spec.
"""Reference implementations of ONNX operators for the smoke suite's goldens.

Every function computes in the dtype of its inputs: the generator calls them with float64 arrays
to produce goldens, and again with float32 arrays to check that the suite's tolerances leave room
for an honest float32 implementation. Convolution and pooling are explicit loops on purpose: they
follow the ONNX spec's index arithmetic directly instead of relying on a library's conventions.
None of this code shares anything with onnxgate's own runtime.
"""

import math

import numpy as np


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def gemm(a, b, c=None, alpha=1.0, beta=1.0, trans_a=0, trans_b=0):
    a = a.T if trans_a else a
    b = b.T if trans_b else b
    y = a.dtype.type(alpha) * (a @ b)
    if c is not None:
        y = y + a.dtype.type(beta) * c
    return y


def same_pads(in_dims, kernel, strides, dilations, upper=True):
    """Returns ONNX pads [x1_begin, x2_begin, ..., x1_end, x2_end] for auto_pad SAME_UPPER/LOWER."""
    begins, ends = [], []
    for size, k, s, d in zip(in_dims, kernel, strides, dilations):
        out = -(-size // s)  # ceil(size / stride): SAME keeps ceil(in / stride) outputs
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
        small, large = total // 2, total - total // 2
        # SAME_UPPER puts the odd extra pad at the end, SAME_LOWER at the beginning.
        begins.append(small if upper else large)
        ends.append(large if upper else small)
    return begins + ends


def _pad_nchw(x, pads, value):
    top, left, bottom, right = pads
    n, c, h, w = x.shape
    out = np.full((n, c, h + top + bottom, w + left + right), value, dtype=x.dtype)
    out[:, :, top:top + h, left:left + w] = x
    return out


def _out_dim(padded, k, s, d):
    return (padded - ((k - 1) * d + 1)) // s + 1


def conv2d(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), group=1):
    """2-D Conv (NCHW input, MCkHkW weights) with explicit loops over outputs and kernel taps."""
    n, c, _, _ = x.shape
    m, c_per_group, kh, kw = w.shape
    assert c == c_per_group * group and m % group == 0, "channel counts do not fit group"
    xp = _pad_nchw(x, pads, 0.0)
    oh = _out_dim(xp.shape[2], kh, strides[0], dilations[0])
    ow = _out_dim(xp.shape[3], kw, strides[1], dilations[1])
    y = np.zeros((n, m, oh, ow), dtype=x.dtype)
    m_per_group = m // group
    for oc in range(m):
        g = oc // m_per_group
        channels = slice(g * c_per_group, (g + 1) * c_per_group)
        for i in range(oh):
            for j in range(ow):
                acc = np.zeros(n, dtype=x.dtype)
                for ki in range(kh):
                    for kj in range(kw):
                        row = i * strides[0] + ki * dilations[0]
                        col = j * strides[1] + kj * dilations[1]
                        acc = acc + xp[:, channels, row, col] @ w[oc, :, ki, kj]
                y[:, oc, i, j] = acc
        if b is not None:
            y[:, oc] += b[oc]
    return y


def _pool2d(x, kernel, strides, pads, reduce):
    n, c, _, _ = x.shape
    xp = _pad_nchw(x, pads, 0.0)
    # valid marks real data, so reducers can ignore (max) or count (average) padded cells.
    valid = _pad_nchw(np.ones((1, 1) + x.shape[2:], dtype=bool), pads, False)
    oh = _out_dim(xp.shape[2], kernel[0], strides[0], 1)
    ow = _out_dim(xp.shape[3], kernel[1], strides[1], 1)
    y = np.zeros((n, c, oh, ow), dtype=x.dtype)
    for i in range(oh):
        for j in range(ow):
            rows = slice(i * strides[0], i * strides[0] + kernel[0])
            cols = slice(j * strides[1], j * strides[1] + kernel[1])
            window = xp[:, :, rows, cols].reshape(n, c, -1)
            y[:, :, i, j] = reduce(window, valid[0, 0, rows, cols].reshape(-1))
    return y


def max_pool2d(x, kernel, strides=(1, 1), pads=(0, 0, 0, 0)):
    # Padding never wins a max: padded cells are left out of every window.
    return _pool2d(x, kernel, strides, pads, lambda win, valid: np.max(win[:, :, valid], axis=-1))


def average_pool2d(x, kernel, strides=(1, 1), pads=(0, 0, 0, 0), count_include_pad=0):
    kernel_size = kernel[0] * kernel[1]

    def reduce(win, valid):
        # Padded cells hold zeros, so the sum is the same either way; only the divisor differs.
        count = kernel_size if count_include_pad else int(np.sum(valid))
        return np.sum(win, axis=-1) / x.dtype.type(count)

    return _pool2d(x, kernel, strides, pads, reduce)


def global_average_pool(x):
    return np.mean(x, axis=tuple(range(2, x.ndim)), keepdims=True)


def batch_norm_inference(x, scale, bias, mean, var, epsilon):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    inv = 1.0 / np.sqrt(var.reshape(shape) + x.dtype.type(epsilon))
    return (x - mean.reshape(shape)) * inv * scale.reshape(shape) + bias.reshape(shape)


def _softmax_last(x2d):
    e = np.exp(x2d - np.max(x2d, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def softmax_13(x, axis=-1):
    """Softmax-13: normalizes along the single axis `axis`."""
    moved = np.moveaxis(x, axis, -1)
    return np.moveaxis(_softmax_last(moved), -1, axis)


def softmax_11(x, axis=1):
    """Softmax-1/11: coerces the input to 2-D [prod(dims[:axis]), prod(dims[axis:])] first."""
    axis = axis % x.ndim
    rows = math.prod(x.shape[:axis])
    return _softmax_last(x.reshape(rows, -1)).reshape(x.shape)


def reshape_target(in_shape, shape, allowzero=0):
    """Resolves Reshape's `shape`: 0 copies the input dim (unless allowzero); -1 is inferred."""
    dims = []
    for i, d in enumerate(shape):
        dims.append(in_shape[i] if (d == 0 and not allowzero) else d)
    if -1 in dims:
        known = math.prod(d for d in dims if d != -1)
        dims[dims.index(-1)] = math.prod(in_shape) // known
    assert math.prod(dims) == math.prod(in_shape), "Reshape element count mismatch"
    return tuple(dims)


def flatten(x, axis=1):
    axis = axis % x.ndim if axis < 0 else axis
    return x.reshape(math.prod(x.shape[:axis]), math.prod(x.shape[axis:]))


def gather(data, indices, axis=0):
    axis = axis % data.ndim
    size = data.shape[axis]
    assert np.all((indices >= -size) & (indices < size)), "Gather index out of range"
    return np.take(data, np.where(indices < 0, indices + size, indices), axis=axis)


def squeeze(x, axes=None):
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    axes = [a % x.ndim for a in axes]
    assert all(x.shape[a] == 1 for a in axes), "Squeeze of a dim that is not 1"
    return x.reshape([d for i, d in enumerate(x.shape) if i not in axes])


def unsqueeze(x, axes):
    # Negative axes count from the end of the OUTPUT rank.
    out_rank = x.ndim + len(axes)
    axes = sorted(a % out_rank for a in axes)
    dims = list(x.shape)
    for a in axes:
        dims.insert(a, 1)
    return x.reshape(dims)
