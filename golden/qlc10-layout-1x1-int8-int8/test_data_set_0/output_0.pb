ByJ0}/fL]K3)"^g&o3
tYAúÊuX	p>ã~(BG=LoD9