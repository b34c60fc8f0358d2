ByJ
þyúsýózímû