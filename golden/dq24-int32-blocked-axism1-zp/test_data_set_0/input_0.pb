BxJ<ÏmÖv¼ôqÁÞê`íÈ<¹ X “{gËóÎ1yZúGšÐzIéMÌÏÂ~j
du]¤¯²¸y²ŸUj¦qn