
BxJ0яc™egкeкdкыиъищишиззззEдDдCдBд±Э°Э°]±]BdCdDd